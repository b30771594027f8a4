"""pip install/show, npm install/ls/outdated, cargo install (lines from pip 26.3 and 23.2,
npm 11.19, cargo 1.95)."""
from cc_filter.filters.rust.cargo_install import CargoInstall
from cc_filter.filters.js.npm_install import NpmInstall
from cc_filter.filters.js.npm_ls import NpmLs
from cc_filter.filters.js.npm_outdated import NpmOutdated
from cc_filter.filters.python.pip_install import PipInstall
from cc_filter.filters.python.pip_show import PipShow


def run(cls, argv, text, exit_code=0):
    return list(cls(argv).run(text.split("\n"), exit_code))


def test_pip_install_keeps_what_was_installed_and_replaced():
    text = """Collecting urllib3==1.26.0
  Downloading urllib3-1.26.0-py2.py3-none-any.whl (136 kB)
     ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ 136.0/136.0 kB 98.0 MB/s eta 0:00:00
Requirement already satisfied: six in ./v/lib/python3.11/site-packages (from x) (1.17.0)
Installing collected packages: urllib3
\x1b[?25l\x1b[2K  Attempting uninstall: urllib3
\x1b[2K    Found existing installation: urllib3 2.8.0
\x1b[2K    Uninstalling urllib3-2.8.0:
\x1b[2K      Successfully uninstalled urllib3-2.8.0
\x1b[?25h\x1b[1A\x1b[2KSuccessfully installed urllib3-1.26.0
ERROR: pip's dependency resolver does not currently take into account all the packages that are installed. This behaviour is the source of the following dependency conflicts.
requests 2.32.3 requires urllib3<3,>=1.21.1, but you have urllib3 1.20 which is incompatible.

[notice] A new release of pip is available: 23.2.1 -> 26.3"""
    assert run(PipInstall, ["pip", "install", "urllib3==1.26.0"], text) == [
        "replaced: urllib3 2.8.0", "Successfully installed urllib3-1.26.0",
        "ERROR: pip's dependency resolver does not currently take into account all the packages that are installed. This behaviour is the source of the following dependency conflicts.",
        "requests 2.32.3 requires urllib3<3,>=1.21.1, but you have urllib3 1.20 which is incompatible.",
        "... (1 already-satisfied dependency line omitted)",
        "... (8 download/progress/build lines omitted)"]


def test_pip_install_top_level_already_satisfied_is_kept_short():
    text = "Requirement already satisfied: requests in ./v/lib/python3.11/site-packages (2.32.3)"
    assert run(PipInstall, ["pip", "install", "requests"], text) == ["already satisfied: requests 2.32.3"]


def test_pip_show_drops_empty_fields_and_groups_files():
    text = """Name: six
Version: 1.17.0
Home-page: https://example.invalid
Required-by:
Files:
  six.py
  __pycache__/six.cpython-311.pyc
  six-1.17.0.dist-info/RECORD"""
    assert run(PipShow, ["pip", "show", "-f", "six"], text) == [
        "Name: six", "Version: 1.17.0", "Files:", "  ./: six.py", "  six-1.17.0.dist-info/: RECORD",
        "  ... (1 compiled __pycache__ file omitted)",
        "... (2 empty/author-email/home-page fields omitted)"]  # Home-page, Required-by


def test_npm_install_keeps_the_error_without_usage_and_log_pointers():
    text = """npm error code EUSAGE
npm error
npm error The `npm ci` command can only install with an existing package-lock.json.
npm error
npm error Clean install a project
npm error
npm error Usage:
npm error npm ci
npm error A complete log of this run can be found in: /home/u/.npm/_logs/x-debug-0.log"""
    assert run(NpmInstall, ["npm", "ci"], text, 1) == [
        "npm error code EUSAGE",
        "  The `npm ci` command can only install with an existing package-lock.json.",
        "... (3 usage lines omitted)", "... (1 log-pointer line omitted)"]


def test_npm_install_summary_without_timing_and_funding():
    text = "\nadded 104 packages in 15s\n\n21 packages are looking for funding\n  run `npm fund` for details\nfound 0 vulnerabilities"
    assert run(NpmInstall, ["npm", "install"], text) == [
        "added 104 packages", "found 0 vulnerabilities", "... (2 funding/advice lines omitted)"]


TREE = """shop@1.0.0 /srv/shop
├─┬ express@4.21.2
│ ├─┬ body-parser@1.20.3
│ │ ├── bytes@3.1.2
│ │ └── debug@2.6.9 deduped
│ └── debug@2.6.9
└── lodash@4.17.20"""


def test_npm_ls_whole_tree_drops_deduped_and_joins_leaves():
    assert run(NpmLs, ["npm", "ls", "--all"], TREE) == [
        "shop@1.0.0 /srv/shop", " express@4.21.2", "  body-parser@1.20.3", "   bytes@3.1.2",
        "  debug@2.6.9", " lodash@4.17.20", "... (1 deduped entry omitted)"]


def test_npm_ls_about_a_package_keeps_every_path():
    assert run(NpmLs, ["npm", "ls", "debug"], TREE) == [
        "shop@1.0.0 /srv/shop", " express@4.21.2", "  body-parser@1.20.3",
        "   bytes@3.1.2, debug@2.6.9 deduped", "  debug@2.6.9", " lodash@4.17.20"]


def test_npm_ls_json_passes_through():
    assert run(NpmLs, ["npm", "ls", "--json"], '{\n  "name": "shop"\n}') == ["{", '  "name": "shop"', "}"]


def test_npm_outdated_rows():
    text = """Package  Current  Wanted  Latest  Location              Depended by
express   4.21.2  4.21.2   5.3.0  node_modules/express  shop
uuid       8.3.2   8.3.2  14.0.3  node_modules/uuid     shop"""
    assert run(NpmOutdated, ["npm", "outdated"], text, 1) == [
        "2 packages outdated (npm outdated: exit code 1)", "Package Current Wanted Latest",
        "express 4.21.2 4.21.2 5.3.0", "uuid 8.3.2 8.3.2 14.0.3", "(all depended on by shop)"]


def test_cargo_install_keeps_the_summary_only():
    text = """  Installing inv v1.2.0 (/srv/tools)
   Compiling config v0.3.1 (/srv/tools/crates/config)
    Finished `release` profile [optimized] target(s) in 1.38s
  Installing /home/u/.cargo/bin/inv
   Installed package `inv v1.2.0 (/srv/tools)` (executable `inv`)"""
    out = run(CargoInstall, ["cargo", "install", "--path", "."], text)
    assert out[0] == "Installed package `inv v1.2.0 (/srv/tools)` (executable `inv`)"
    assert not any("Compiling config" in line or "/home/u/.cargo/bin" in line for line in out)
    assert "... (3 Installing/Compiling lines omitted)" in out  # the progress, counted
