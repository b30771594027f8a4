"""Swap setuptools' editable finder for a plain path file.

setuptools' editable finder imports pathlib (~25 ms) at every interpreter start, which would
hide every startup budget of ARCHITECTURE §9. Each tool folder holds its package directly
(`cc-lex/cc_lex`), so putting the folders on sys.path gives the same live imports for free.
"""
import glob
import os
import site
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDERS = ["ctxcrl", "cc-lex", "cc-peel", "cc-gate", "cc-rewrite", "cc-filter", "cc-track", "cc-hook"]

site_packages = next(p for p in site.getsitepackages() if p.startswith(sys.prefix))
for stale in glob.glob(os.path.join(site_packages, "__editable__*contextcrawler*")):
    os.remove(stale)
with open(os.path.join(site_packages, "contextcrawler-dev.pth"), "w") as f:
    f.write("".join(os.path.join(ROOT, tool) + "\n" for tool in FOLDERS))
print(f"dev mode: {len(FOLDERS)} folders (the ground and the seven tools) on sys.path via {site_packages}/contextcrawler-dev.pth")
