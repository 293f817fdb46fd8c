import type { Command } from 'commander';
import { InspectorError, toInspectorError } from '../../../shared/model/errors.js';
import { listProviderFactories, selectPlatformFactory, selectProviderFactories } from '../../core/registry.js';
import { FALLBACK_DESKTOP } from '../../runtime/desktop.js';
import type { DesktopInfo, DoubleClickSettings } from '../../core/platform.js';
import type { AccessibilitySwitchState } from '../../core/provider.js';
import { defaultAccessibilitySwitch } from '../../services/accessibility-status.js';

type Format = 'text' | 'json';

function parseFormat(value: string): Format {
  if (value !== 'text' && value !== 'json')
    throw new InspectorError('usage', `--format must be text or json, got "${value}"`);
  return value;
}

/** The default providers' accessibility switch (AT-SPI's, on Linux); undefined where there is none. */
async function accessibilityReport(enable: boolean): Promise<AccessibilitySwitchState | undefined> {
  const accessibilitySwitch = defaultAccessibilitySwitch();
  if (!accessibilitySwitch) return undefined;
  const state = enable ? await accessibilitySwitch.enable() : await accessibilitySwitch.state();
  return { enabled: state.enabled, busAddress: state.busAddress, message: state.message };
}

interface PlatformReport {
  id: string;
  desktop: DesktopInfo;
  /** The pointer's double-click settings and where they came from, when the platform has a pointer. */
  doubleClick?: DoubleClickSettings;
  unavailable: string[];
}

async function platformReport(): Promise<PlatformReport | { error: string }> {
  try {
    const factory = selectPlatformFactory({ env: process.env });
    if (!factory) return { id: 'none', desktop: FALLBACK_DESKTOP, unavailable: [] };
    const bundle = await factory.create({ env: process.env });
    try {
      const desktop = bundle.desktopInfo ? await bundle.desktopInfo.describe() : FALLBACK_DESKTOP;
      const doubleClick = bundle.pointer?.doubleClickSettings?.();
      return {
        id: bundle.id,
        desktop,
        ...(doubleClick ? { doubleClick } : {}),
        unavailable: bundle.unavailable.map((u) => `${u.device}: ${u.reason}`),
      };
    } finally {
      await bundle.shutdown();
    }
  } catch (error) {
    return { error: toInspectorError(error).message };
  }
}

async function providerReport(): Promise<Array<{ id: string; state: string; message?: string }>> {
  const defaults = selectProviderFactories([], process.platform);
  return Promise.all(
    defaults.map(async (factory) => {
      try {
        const provider = await factory.create({ options: {}, backendOptions: {}, windowManager: undefined });
        const status = provider.status();
        await provider.shutdown();
        return {
          id: factory.descriptor.id,
          state: status.state,
          ...(status.message ? { message: status.message } : {}),
        };
      } catch (error) {
        return { id: factory.descriptor.id, state: 'unavailable', message: toInspectorError(error).message };
      }
    }),
  );
}

export function registerInfo(program: Command): void {
  program
    .command('info')
    .description('what this machine offers: platform, monitors, providers and the accessibility bus')
    .option('--format <format>', 'text or json', parseFormat, 'text')
    .option('--enable-accessibility', 'switch the accessibility bus on first (org.a11y.Status.IsEnabled)')
    .action(async (options: { format: Format; enableAccessibility?: boolean }) => {
      const accessibility = await accessibilityReport(options.enableAccessibility === true);
      const [platform, providers] = await Promise.all([platformReport(), providerReport()]);
      const report = {
        os: { platform: process.platform, arch: process.arch },
        session:
          process.env.XDG_SESSION_TYPE ??
          (process.env.WAYLAND_DISPLAY ? 'wayland' : process.env.DISPLAY ? 'x11' : 'none'),
        platform,
        providers,
        ...(accessibility ? { accessibility } : {}),
      };
      if (options.format === 'json') {
        process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
        return;
      }
      const lines = [`OS: ${report.os.platform} ${report.os.arch}, session: ${report.session}`];
      if ('error' in platform) lines.push(`Platform: unavailable (${platform.error})`);
      else {
        lines.push(`Platform: ${platform.id} (${platform.desktop.technology}, ${platform.desktop.osVersion})`);
        const b = platform.desktop.bounds;
        lines.push(`Desktop: ${b.width}x${b.height} at ${b.x},${b.y}, ${platform.desktop.monitors.length} monitor(s)`);
        for (const m of platform.desktop.monitors) {
          lines.push(
            `  ${m.name || m.id}: ${m.bounds.width}x${m.bounds.height} at ${m.bounds.x},${m.bounds.y}${m.isPrimary ? ' (primary)' : ''}, scale ${m.scale}`,
          );
        }
        const dc = platform.doubleClick;
        if (dc) {
          lines.push(
            `Double click: ${dc.timeMs} ms (${dc.timeSource}), ${dc.size.width}x${dc.size.height} px (${dc.sizeSource}); ${dc.detail}`,
          );
        }
        for (const u of platform.unavailable) lines.push(`  unavailable: ${u}`);
      }
      if (accessibility) {
        lines.push(
          `Accessibility: ${accessibility.enabled ? 'enabled' : 'disabled'}${accessibility.busAddress ? ` (${accessibility.busAddress})` : ''}`,
        );
        lines.push(`  ${accessibility.message}`);
      }
      for (const p of providers) lines.push(`Provider ${p.id}: ${p.state}${p.message ? ` (${p.message})` : ''}`);
      process.stdout.write(`${lines.join('\n')}\n`);
    });
}

export function registerListProviders(program: Command): void {
  program
    .command('list-providers')
    .description('the providers this build knows')
    .option('--format <format>', 'text or json', parseFormat, 'text')
    .action((options: { format: Format }) => {
      const providers = listProviderFactories().map((f) => ({
        id: f.descriptor.id,
        displayName: f.descriptor.displayName,
        technology: f.descriptor.technology,
        kind: f.descriptor.kind,
        eventCapabilities: f.descriptor.eventCapabilities,
        optIn: f.descriptor.optIn,
        default: !f.descriptor.optIn && f.descriptor.defaultOn.includes(process.platform),
      }));
      if (options.format === 'json') process.stdout.write(`${JSON.stringify(providers, null, 2)}\n`);
      else {
        for (const p of providers) {
          process.stdout.write(
            `${p.id}\t${p.displayName} (${p.technology}, events: ${p.eventCapabilities})${p.default ? ' [default]' : ''}${p.optIn ? ' [opt-in]' : ''}\n`,
          );
        }
      }
    });
}

export function registerEnableAccessibility(program: Command): void {
  program
    .command('enable-accessibility')
    .description('switch the accessibility bus on; applications started while it was off must be restarted')
    .action(async () => {
      const report = await accessibilityReport(true);
      if (!report)
        throw new InspectorError(
          'unsupported',
          `accessibility switching is a Linux (AT-SPI) feature, not ${process.platform}`,
        );
      process.stdout.write(`${report.message}\n`);
    });
}
