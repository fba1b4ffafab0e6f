"""Replaces a generated table in a Markdown doc: the text between `<!-- table:NAME -->` and
`<!-- /table:NAME -->`, written atomically. Used by the scripts that produce docs' tables."""
import os
import re


def replace_block(doc, name, text):
    with open(doc) as f:
        content = f.read()
    pattern = re.compile(rf"<!-- table:{re.escape(name)} -->\n.*?<!-- /table:{re.escape(name)} -->",
                         re.S)
    if not pattern.search(content):
        raise SystemExit(f"{doc}: no <!-- table:{name} --> block")
    content = pattern.sub(lambda m: f"<!-- table:{name} -->\n{text}<!-- /table:{name} -->", content)
    tmp = doc + ".tmp"
    with open(tmp, "w") as f:
        f.write(content)
    os.replace(tmp, doc)
