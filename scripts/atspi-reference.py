#!/usr/bin/python3
"""Reference view of the AT-SPI tree through libatspi (gi.repository.Atspi), the library Accerciser and dogtail use.

Ground truth for the AT-SPI provider's tests and the baseline for its benchmarks. Run with /usr/bin/python3 inside
the desktop session (DISPLAY and DBUS_SESSION_BUS_ADDRESS set).

  atspi-reference.py --list                              applications: name, pid, bus name, child count
  atspi-reference.py --pid 1234 [--max-nodes N]          JSON tree of the application with that pid
  atspi-reference.py --name gtk3-demo --extents          ... by application name, with screen extents
  atspi-reference.py --pid 1234 --summary                only counts and timing (for benchmarks)

Each node: {"role": "push button", "name": "OK", "childCount": 0, "states": ["enabled", ...],
"path": "/org/a11y/atspi/accessible/12", "children": [...]} (+ "extents": {"x","y","width","height"}).
Role names are libatspi's (Atspi.Accessible.get_role_name, e.g. "push button"); state names are the AT-SPI
nicks ("focusable", "sensitive", ...). Output: {"app": {...}, "nodes": n, "truncated": bool, "elapsedMs": walk time,
"tree": node}. Text and values are never read, so secrets (password fields) never appear.
"""

import argparse
import json
import sys
import time

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402

FIELDS = ("role", "name", "states", "extents", "path")


def state_names(acc):
    states = acc.get_state_set().get_states()
    return sorted(s.value_nick for s in states)


def bus_name_of(acc):
    try:
        return acc.app.bus_name
    except Exception:
        return None


def app_info(app):
    return {
        "name": app.get_name() or "",
        "pid": app.get_process_id(),
        "busName": bus_name_of(app),
        "childCount": app.get_child_count(),
    }


def find_app(desktop, pid=None, name=None, bus_name=None):
    for i in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(i)
        if app is None:
            continue
        try:
            if pid is not None and app.get_process_id() != pid:
                continue
            if name is not None and (app.get_name() or "") != name:
                continue
            if bus_name is not None and bus_name_of(app) != bus_name:
                continue
        except Exception:  # an application that does not answer
            continue
        return app
    return None


def node_of(acc, fields):
    node = {}
    if "role" in fields:
        node["role"] = acc.get_role_name()
    if "name" in fields:
        node["name"] = acc.get_name() or ""
    node["childCount"] = acc.get_child_count()
    if "states" in fields:
        node["states"] = state_names(acc)
    if "extents" in fields:
        try:
            r = acc.get_extents(Atspi.CoordType.SCREEN)
            node["extents"] = {"x": r.x, "y": r.y, "width": r.width, "height": r.height}
        except Exception:  # no Component interface
            node["extents"] = None
    if "path" in fields:
        node["path"] = acc.path
    return node


def walk(root, fields, max_nodes, max_depth, build_tree):
    """Pre-order walk; returns (tree or None, node count, truncated, errors)."""
    count = 0
    errors = 0
    truncated = False
    top = node_of(root, fields)
    count += 1
    stack = [(root, top, 0)]
    while stack:
        acc, node, depth = stack.pop()
        n = node["childCount"]
        if build_tree:
            node["children"] = []
        if depth >= max_depth:
            if n:
                truncated = True
            continue
        kids = []
        for i in range(n):
            if count >= max_nodes:
                truncated = True
                break
            try:
                child = acc.get_child_at_index(i)
                if child is None:
                    errors += 1
                    continue
                child_node = node_of(child, fields)
            except Exception:
                errors += 1
                continue
            count += 1
            if build_tree:
                node["children"].append(child_node)
            kids.append((child, child_node, depth + 1))
        stack.extend(reversed(kids))
    return (top if build_tree else None), count, truncated, errors


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sel = p.add_mutually_exclusive_group(required=True)
    sel.add_argument("--list", action="store_true", help="list registered applications")
    sel.add_argument("--pid", type=int, help="application by process id")
    sel.add_argument("--name", help="application by accessible name (exact)")
    sel.add_argument("--bus-name", help="application by unique bus name")
    p.add_argument("--max-nodes", type=int, default=100000, help="stop after this many nodes (default 100000)")
    p.add_argument("--max-depth", type=int, default=1000, help="do not descend deeper (default 1000)")
    p.add_argument("--extents", action="store_true", help="also read screen extents of every node")
    p.add_argument("--paths", action="store_true", help="also give every node's object path")
    p.add_argument(
        "--fields",
        default="role,name,states",
        help="comma list of role,name,states,extents,path (default role,name,states); childCount always",
    )
    p.add_argument("--summary", action="store_true", help="print counts and timing only, not the tree")
    p.add_argument("--wait", type=float, default=0, help="seconds to wait for the application to register")
    p.add_argument("--timeout-ms", type=int, default=5000, help="libatspi D-Bus call timeout")
    args = p.parse_args()

    fields = set(f.strip() for f in args.fields.split(",") if f.strip())
    unknown = fields - set(FIELDS)
    if unknown:
        p.error("unknown fields: " + ",".join(sorted(unknown)))
    if args.extents:
        fields.add("extents")
    if args.paths:
        fields.add("path")

    Atspi.set_timeout(args.timeout_ms, -1)
    desktop = Atspi.get_desktop(0)

    if args.list:
        apps = []
        for i in range(desktop.get_child_count()):
            app = desktop.get_child_at_index(i)
            if app is None:
                continue
            try:
                apps.append(app_info(app))
            except Exception as e:  # an application that does not answer
                apps.append({"error": str(e)})
        json.dump({"apps": apps}, sys.stdout)
        sys.stdout.write("\n")
        return 0

    deadline = time.monotonic() + args.wait
    while True:
        app = find_app(desktop, pid=args.pid, name=args.name, bus_name=args.bus_name)
        if app is not None or time.monotonic() >= deadline:
            break
        time.sleep(0.1)
    if app is None:
        what = args.pid if args.pid is not None else (args.name if args.name is not None else args.bus_name)
        sys.stderr.write("atspi-reference: no registered application matches %s\n" % what)
        return 3

    t0 = time.perf_counter()
    tree, count, truncated, errors = walk(app, fields, args.max_nodes, args.max_depth, not args.summary)
    elapsed_ms = (time.perf_counter() - t0) * 1000.0
    out = {
        "app": app_info(app),
        "fields": sorted(fields),
        "nodes": count,
        "truncated": truncated,
        "errors": errors,
        "elapsedMs": round(elapsed_ms, 1),
    }
    if tree is not None:
        out["tree"] = tree
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
