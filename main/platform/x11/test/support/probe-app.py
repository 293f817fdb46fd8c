#!/usr/bin/python3
"""A small GTK 3 window for the X11 desktop tests: an entry, a check box and a label.

Prints one JSON line per event on stdout: "ready" with the widgets' desktop rectangles once the window is on screen,
"text" when the entry changes, "check" when the check box toggles, "bounds" on request (a line "bounds" on stdin), "settings" with GTK's double-click time and distance (a line
"settings"), "press" for each button press on the entry with its kind (button-press, 2button-press, 3button-press).
"""
import json
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk  # noqa: E402

title = sys.argv[1] if len(sys.argv) > 1 else "X11 probe"
x = int(sys.argv[2]) if len(sys.argv) > 2 else 100
y = int(sys.argv[3]) if len(sys.argv) > 3 else 100


def emit(event, **data):
    data["event"] = event
    sys.stdout.write(json.dumps(data) + "\n")
    sys.stdout.flush()


# A steady screen: no blinking caret, so two screenshots taken moments apart are the same.
Gtk.Settings.get_default().set_property("gtk-cursor-blink", False)

window = Gtk.Window(title=title)
window.set_default_size(360, 200)
window.move(x, y)
box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=12)
box.set_border_width(16)
entry = Gtk.Entry()
entry.set_name("probe-entry")
check = Gtk.CheckButton(label="Probe check box")
label = Gtk.Label(label="The quick brown fox")
box.pack_start(entry, False, False, 0)
box.pack_start(check, False, False, 0)
box.pack_start(label, True, True, 0)
window.add(box)
window.connect("destroy", Gtk.main_quit)
entry.connect("changed", lambda e: emit("text", text=e.get_text()))
check.connect("toggled", lambda c: emit("check", active=c.get_active()))
entry.connect(
    "button-press-event",
    lambda w, e: emit("press", kind=e.type.value_nick, time=e.time, x=e.x_root, y=e.y_root, button=e.button) and False,
)


def rect(widget):
    gdk_window = window.get_window()
    ox, oy = gdk_window.get_origin()[1:]
    wx, wy = widget.translate_coordinates(window, 0, 0)
    allocation = widget.get_allocation()
    return {"x": ox + wx, "y": oy + wy, "width": allocation.width, "height": allocation.height}


def report(event):
    emit(event, xid=window.get_window().get_xid(), window=rect(window), entry=rect(entry), check=rect(check),
         label=rect(label))
    return False


def on_stdin(source, condition):
    line = source.readline()
    if not line:
        Gtk.main_quit()
        return False
    command = line.strip()
    if command == "bounds":
        report("bounds")
    elif command == "settings":
        settings = Gtk.Settings.get_default()
        emit("settings", time=settings.get_property("gtk-double-click-time"),
             distance=settings.get_property("gtk-double-click-distance"))
    elif command == "focus-entry":
        entry.grab_focus()
        emit("focused")
    return True


GLib.io_add_watch(sys.stdin, GLib.IO_IN | GLib.IO_HUP, on_stdin)
window.connect("map-event", lambda *a: GLib.timeout_add(400, report, "ready") and False)
window.show_all()
Gtk.main()
