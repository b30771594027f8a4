"""The house has floors, and every import points down: the ground (`ctxcrl`) below every tool,
then cc-lex, cc-peel, and so on up to cc-track (which reads what every agent wrote through
cc-hook's agent modules). A module may import its own package or any
package on a lower floor, never one on its floor or above (no circles, no arrows back up).
Imports inside functions count too: a lazy import is still an arrow."""
import ast
import os

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
#: package → floor, and the folder that holds it
FLOORS = {"ctxcrl": 0, "cc_lex": 1, "cc_peel": 2, "cc_gate": 3, "cc_filter": 3, "cc_rewrite": 4,
          "cc_hook": 5, "cc_track": 6}
FOLDERS = {"ctxcrl": "ctxcrl", **{p: p.replace("_", "-") for p in FLOORS if p != "ctxcrl"}}


def modules():
    for package, folder in FOLDERS.items():
        root = os.path.join(REPO, folder, package)
        for base, _dirs, files in os.walk(root):
            for name in files:
                if name.endswith(".py"):
                    yield package, os.path.join(base, name)


def imported_packages(path: str):
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        for name in names:
            top = name.split(".", 1)[0]
            if top in FLOORS:
                yield top, node.lineno


def test_every_import_points_down():
    upward = []
    for package, path in modules():
        for target, line in imported_packages(path):
            if target != package and FLOORS[target] >= FLOORS[package]:
                upward.append(f"{os.path.relpath(path, REPO)}:{line}: {package} → {target}")
    assert upward == []


@pytest.mark.parametrize("package", sorted(FLOORS))
def test_every_package_is_where_the_floors_say(package):
    assert os.path.isfile(os.path.join(REPO, FOLDERS[package], package, "__init__.py"))


#: cc-filter's rooms, lowest first: the kit a filter author uses, the choice of filter, the
#: runner side. A room imports only itself and the rooms below it; filters sit on the kit and
#: the choice (npm-test reads package scripts, the generic filter the fallback rules), never
#: on the runner; the CLI modules at the root sit on top of all.
CC_FILTER_ROOMS = {"kit": 0, "choose": 1, "filters": 2, "run": 2}


def test_cc_filter_rooms_import_downward():
    upward = []
    root = os.path.join(REPO, "cc-filter", "cc_filter")
    for room, floor in CC_FILTER_ROOMS.items():
        for base, _dirs, files in os.walk(os.path.join(root, room)):
            for name in (n for n in files if n.endswith(".py")):
                path = os.path.join(base, name)
                with open(path, encoding="utf-8") as f:
                    tree = ast.parse(f.read(), path)
                for node in ast.walk(tree):
                    names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                             [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0
                             and node.module else [])
                    for target in names:
                        parts = target.split(".")
                        if parts[0] != "cc_filter":
                            continue
                        other = parts[1] if len(parts) > 1 else None
                        if other != room and CC_FILTER_ROOMS.get(other, 9) >= floor:
                            upward.append(f"{os.path.relpath(path, REPO)}:{node.lineno}: "
                                          f"{room} → {target}")
    assert upward == []
