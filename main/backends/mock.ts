// Links the mock backends in (PlatynUI's link crate): the mock provider and the mock platform, both opt-in, so they
// serve only when named (`--provider mock`, `platform: 'mock'`). Enough for tests and demos on any machine.
import '../providers/mock/register.js';
import '../platform/mock/register.js';
