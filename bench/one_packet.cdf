# Every flow 1000 bytes (one packet): bench/many_flows.toml
1000 0
1000 100
