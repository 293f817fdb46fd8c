// Links every backend of a Linux build in (PlatynUI's link crate): the entry points (the CLI, Electron's runtime
// host) import this module, nothing else does; the runtime only sees the registry. Registering is cheap: AT-SPI
// loads its D-Bus client and X11 loads koffi only when a runtime creates them.
import './mock.js';
import '../providers/atspi/register.js';
// The X11 backend serves X11 sessions (and XWayland); on Wayland without XWayland it reports its devices unavailable.
import '../platform/x11/register.js';
