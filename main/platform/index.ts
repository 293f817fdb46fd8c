// Links the platform backends of this build in: importing a backend module registers its factory.
// The mock backend registers as opt-in: it only serves when named (`platform: 'mock'`).
import './mock/register.js';
// The X11 backend serves X11 sessions (and XWayland); on Wayland without XWayland it reports its devices unavailable.
import './x11/register.js';
