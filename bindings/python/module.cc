// _dcqcn: the C++ side of the `dcqcn` Python package (python/dcqcn/__init__.py), which turns
// what these functions write and return into dicts and pandas DataFrames. Every function takes
// what the matching command takes; input errors raise dcqcn.InputError with the CLI's message.
// Simulations run with the GIL released; Ctrl-C (SIGINT) in the main thread, stop_all() or
// stop_runs(True) stops them between slices of events and raises KeyboardInterrupt, leaving no
// output folder.
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <thread>

#include "analysis/buffer_rules.h"
#include "analysis/buffer_thresholds.h"
#include "core/error.h"
#include "core/huge_pages.h"
#include "net/network.h"
#include "output/output_lock.h"
#include "output/staged_folder.h"
#include "run/fluid_driver.h"
#include "run/hpcc_run.h"
#include "run/run_scenario.h"
#include "run/sweep.h"
#include "scenario/resolved_toml.h"
#include "scenario/scenario_loader.h"

namespace py = pybind11;

namespace dcqcn {
namespace {

Scenario Load(const std::string& scenario, bool is_path, const std::vector<std::string>& sets,
              const LoadOptions& options = {}) {
  const std::vector<Override> overrides(sets.begin(), sets.end());
  return is_path ? LoadScenarioFile(scenario, overrides, options)
                 : LoadScenarioText(scenario, "<scenario text>", overrides, options);
}

// Set by stop_all() (the package's exit hook): every call in progress stops as on Ctrl-C, and
// every new one at once.
std::atomic<bool> g_stop_all{false};
// Set by stop_runs(True) (`dcqcn tune`'s signal handler) until stop_runs(False): every call in
// progress, in any thread, stops as on Ctrl-C, and every new one at once.
std::atomic<bool> g_stop_runs{false};

bool Finalizing() {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsFinalizing();
#else
  return _Py_IsFinalizing();
#endif
}

// The GIL released for a C++ section. A daemon thread that comes back once the interpreter is
// finalizing must not take the GIL again: CPython would end the thread with pthread_exit from
// this destructor, which C++ turns into std::terminate (SIGABRT). It waits for the process to
// exit instead, as CPython 3.14 makes its own threads do. The thread that finalizes (a call
// from a destructor then) keeps the GIL: nothing else runs.
class GilReleased {
 public:
  GilReleased() : state_(Finalizing() ? nullptr : PyEval_SaveThread()) {}
  ~GilReleased() {
    if (state_ == nullptr) return;
    while (Finalizing()) std::this_thread::sleep_for(std::chrono::seconds(1));
    PyEval_RestoreThread(state_);
  }
  GilReleased(const GilReleased&) = delete;
  GilReleased& operator=(const GilReleased&) = delete;

 private:
  PyThreadState* state_;
};

// Runs `work(stop)` on a thread of its own, without the GIL, and sets `stop` (which `work`
// polls: it throws Interrupted) on Ctrl-C, on stop_all() or when the interpreter finalizes.
// Returns what `work` returns or rethrows what it threw. Every long call goes through here, so
// stopping is handled in this one place.
template <class Work>
auto Interruptible(Work work) {
  if (g_stop_all) throw Interrupted("interrupted: the interpreter is exiting; nothing run");
  if (g_stop_runs) throw Interrupted("interrupted: nothing run");
  // Only the main thread sees Ctrl-C (PyErr_CheckSignals does nothing elsewhere), and only it
  // may take the GIL while waiting: another could be ended by a finalizing interpreter there.
  const bool main_thread =
      PyThread_get_thread_ident() ==
      py::module_::import("threading").attr("main_thread")().attr("ident").cast<unsigned long>();
  std::atomic<bool> stop{false};
  bool signalled = false;  // Ctrl-C came while the work ran
  std::optional<decltype(work(stop))> result;
  std::exception_ptr error;
  std::atomic<bool> finished{false};
  {
    GilReleased release;
    std::thread worker([&] {
      try {
        result.emplace(work(stop));
      } catch (...) {
        error = std::current_exception();
      }
      finished = true;
    });
    // Joined on every way out (a joinable std::thread's destructor calls std::terminate); the
    // work is told to stop first in case it still runs.
    struct Join {
      std::thread& thread;
      std::atomic<bool>& stop;
      ~Join() {
        stop = true;
        thread.join();
      }
    } join{worker, stop};
    while (!finished) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      if (g_stop_all || g_stop_runs || Finalizing()) {
        stop = true;
      } else if (main_thread) {
        py::gil_scoped_acquire acquire;
        if (PyErr_CheckSignals() != 0) {
          PyErr_Clear();  // raised again as KeyboardInterrupt once the work has stopped
          stop = true;
          signalled = true;
        }
      }
    }
  }
  if (error) std::rethrow_exception(error);
  // The work may have finished before it saw the stop (it was writing): Ctrl-C still stops the
  // caller's loop. What the work wrote is whole.
  if (signalled) throw Interrupted("interrupted after the results were written");
  return std::move(*result);
}

// The RunOptions hook that calls the user's progress callback, at most twice a second.
std::function<void(const RunProgress&)> ProgressHook(const py::object& progress) {
  if (progress.is_none()) return nullptr;
  auto last = std::make_shared<std::chrono::steady_clock::time_point>();
  return [progress, last](const RunProgress& p) {
    const auto now = std::chrono::steady_clock::now();
    if (now - *last < std::chrono::milliseconds(500)) return;
    // Stopping: the run ends at this slice. Taking the GIL of a finalizing interpreter would end
    // this C++ thread (std::terminate).
    if (g_stop_all || Finalizing()) return;
    *last = now;
    py::gil_scoped_acquire acquire;
    py::dict d;
    d["time_ns"] = p.now / kNanosecond;
    d["fraction"] = p.fraction;
    d["events"] = p.events;
    d["flows_done"] = p.flows_done;
    d["flows_total"] = p.flows_total;
    d["start_ns"] = p.origin / kNanosecond;
    progress(d);
  };
}

// Runs the scenario into `out_dir` (staged, swapped in whole), which the package then reads.
void Run(const std::string& scenario, bool is_path, const std::vector<std::string>& sets,
         const std::string& out_dir, bool force, const py::object& progress, int threads,
         int runs_at_once, const std::string& placement_from) {
  const Scenario s = Load(scenario, is_path, sets);
  RunOptions options;
  options.on_progress = ProgressHook(progress);
  options.threads = threads;
  options.runs_at_once = runs_at_once;
  options.placement_from = placement_from;
  Interruptible([&](std::atomic<bool>& stop) {
    options.stop = &stop;
    StagedFolder folder(out_dir, force);
    options.out_dir = folder.path();
    RunScenario(s, options);
    folder.Commit();
    return true;
  });
}

// resolved.toml's text and the warnings `dcqcn check` prints (buffers, routing loops); the
// network is built too, as `dcqcn check` does.
std::pair<std::string, std::vector<std::string>> Check(const std::string& scenario, bool is_path,
                                                       const std::vector<std::string>& sets) {
  // As `dcqcn check`: a collective's and a job's flows counted, not built.
  Scenario s = Load(scenario, is_path, sets, LoadOptions{.build_collectives_and_jobs = false});
  std::vector<std::string> warnings = BufferWarnings(s);
  {
    GilReleased release;
    Network net(ToNetworkConfig(s));
    for (std::string& w : net.RouteLoops()) warnings.push_back(std::move(w));
  }
  return {ResolvedToml(s), warnings};
}

py::dict Buffer(const BufferOptions& o) {
  const BufferThresholds t = ComputeBufferThresholds(o);
  py::dict d;
  d["ports"] = t.ports;
  d["buffer_bytes"] = t.buffer;
  d["rate_bps"] = t.rate;
  d["cable_delay_ns"] = static_cast<double>(t.cable_delay) / kNanosecond;
  d["mtu_bytes"] = t.mtu;
  d["beta"] = t.beta;
  d["headroom_bytes"] = t.headroom;
  if (t.terms) {
    d["headroom_terms_bytes"] = py::dict(
        py::arg("round_trip") = t.terms->round_trip, py::arg("frames") = t.terms->frames,
        py::arg("pfc_frame") = t.terms->pfc_frame, py::arg("response") = t.terms->response);
  }
  d["shared_bytes"] = t.shared;
  d["headroom_all_priorities_bytes"] = t.buffer - t.shared;
  d["t_pfc_static_bytes"] = t.pfc_static;
  d["t_ecn_static_bytes"] = t.ecn_static;
  d["t_ecn_dynamic_bytes"] = t.ecn_dynamic;
  d["static_feasible"] = t.static_feasible();
  d["kmin_bytes"] = t.kmin;
  d["kmin_safe_dynamic"] = t.kmin_safe_dynamic();
  d["kmin_safe_static"] = t.kmin_safe_static();
  return d;
}

// The runs that failed (their error is in sweep.csv).
size_t Sweep(SweepOptions options) {
  options.quiet = true;
  return Interruptible([&](std::atomic<bool>& stop) {
    options.stop = &stop;
    return RunSweepCommand(options).failed;
  });
}

std::pair<std::string, std::vector<std::string>> Fluid(FluidCommandOptions options) {
  std::vector<std::string> warnings;
  std::string summary = Interruptible([&](std::atomic<bool>& stop) {
    options.stop = &stop;
    return RunFluidCommand(options, &warnings).dump();
  });
  return {summary, warnings};
}

py::dict Hpcc(HpccCommandOptions options) {
  options.quiet = true;
  const HpccCommandResult r = Interruptible([&](std::atomic<bool>& stop) {
    options.stop = &stop;
    return RunHpccCommand(options);
  });
  py::dict d;
  d["out"] = r.out_dir;
  d["fct_file"] = r.fct_file;
  d["pfc_file"] = r.pfc_file;
  return d;
}

// The lock every writer of a result folder takes (output/output_lock.h), held by Python code
// that writes one itself (`dcqcn tune`) until release() or until it is collected.
class FolderLock {
 public:
  FolderLock(const std::string& dir, const std::string& shown)
      : lock_(std::make_unique<OutputLock>(dir, shown)) {}
  void Release() { lock_.reset(); }

 private:
  std::unique_ptr<OutputLock> lock_;
};

}  // namespace
}  // namespace dcqcn

PYBIND11_MODULE(_dcqcn, m) {
  using namespace dcqcn;
  m.doc() = "dcqcn's engine; use the dcqcn package (import dcqcn), which wraps it";
  // Huge pages for the runs' state, advised once for this process (core/huge_pages.h).
  EnableHugePages();
  static py::exception<InputError> input_error(m, "InputError", PyExc_ValueError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InputError& e) {
      PyErr_SetString(input_error.ptr(), e.what());
    } catch (const Interrupted& e) {
      PyErr_SetString(PyExc_KeyboardInterrupt, e.what());
    } catch (const InvariantError& e) {
      PyErr_SetString(
          PyExc_RuntimeError,
          (std::string("internal error (invariant violated, please report): ") + e.what()).c_str());
    }
  });
  m.attr("version") = DCQCN_VERSION;
  m.def("stop_all", [] { g_stop_all = true; });
  m.def(
      "stop_runs", [](bool stop) { g_stop_runs = stop; }, py::arg("stop"));
  py::class_<FolderLock>(m, "OutputLock")
      .def(py::init<const std::string&, const std::string&>(), py::arg("dir"), py::arg("shown"))
      .def("release", &FolderLock::Release);
  m.def("run", &Run, py::arg("scenario"), py::arg("is_path"), py::arg("sets"), py::arg("out"),
        py::arg("force"), py::arg("progress"), py::arg("threads"), py::arg("runs_at_once") = 1,
        py::arg("placement_from") = "");
  m.def("check", &Check, py::arg("scenario"), py::arg("is_path"), py::arg("sets"));
  m.def(
      "buffer",
      [](const std::map<std::string, std::string>& kwargs) {
        static const std::map<std::string, std::string BufferOptions::*> kOptions = {
            {"ports", &BufferOptions::ports}, {"buffer", &BufferOptions::buffer},
            {"rate", &BufferOptions::rate},   {"cable", &BufferOptions::cable},
            {"mtu", &BufferOptions::mtu},     {"headroom", &BufferOptions::headroom},
            {"beta", &BufferOptions::beta},   {"kmin", &BufferOptions::kmin}};
        BufferOptions o;
        for (const auto& [k, v] : kwargs) {
          const auto it = kOptions.find(k);
          if (it == kOptions.end()) {
            throw InputError("buffer: unknown option " + k +
                             " (expected ports, buffer, rate, cable, mtu, headroom, beta or kmin)");
          }
          o.*(it->second) = v;
        }
        return Buffer(o);
      },
      py::arg("options"));
  m.def(
      "sweep",
      [](const std::string& scenario, const std::vector<std::string>& vary,
         const std::vector<std::string>& sets, int seeds, const std::string& out, int jobs,
         int threads, bool force, bool resume) {
        SweepOptions o;
        o.scenario = scenario;
        o.vary = vary;
        o.sets = sets;
        o.seeds = seeds;
        o.out_dir = out;
        o.jobs = jobs;
        o.threads = threads;
        o.force = force;
        o.resume = resume;
        return Sweep(o);
      },
      py::arg("scenario"), py::arg("vary"), py::arg("sets"), py::arg("seeds"), py::arg("out"),
      py::arg("jobs"), py::arg("threads"), py::arg("force"), py::arg("resume"));
  m.def(
      "fluid",
      [](const std::string& scenario, const std::vector<std::string>& sets,
         std::optional<int> flows, std::optional<std::string> rate,
         std::optional<std::string> delay, const std::string& duration, const std::string& out,
         bool force) {
        FluidCommandOptions o;
        o.scenario = scenario;
        o.sets = sets;
        o.flows = flows;
        o.rate = rate;
        o.delay = delay;
        o.duration = duration;
        o.out_dir = out;
        o.force = force;
        o.quiet = true;
        return Fluid(o);
      },
      py::arg("scenario"), py::arg("sets"), py::arg("flows"), py::arg("rate"), py::arg("delay"),
      py::arg("duration"), py::arg("out"), py::arg("force"));
  m.def(
      "hpcc",
      [](const std::string& config, const std::vector<std::string>& sets, const std::string& out,
         const std::string& model, bool force, int threads) {
        HpccCommandOptions o;
        o.threads = threads;
        o.config = config;
        o.sets = sets;
        o.out_dir = out;
        o.model = model;
        o.force = force;
        return Hpcc(o);
      },
      py::arg("config"), py::arg("sets"), py::arg("out"), py::arg("model"), py::arg("force"),
      py::arg("threads"));
}
