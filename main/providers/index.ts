// Links the providers of this build in: importing a provider module registers its factory (PlatynUI's link crate).
// The mock provider registers too, but as opt-in: it is only created when named (`--provider mock`).
// Each provider adds one import line here.
import './atspi/register.js';
import './mock/register.js';
