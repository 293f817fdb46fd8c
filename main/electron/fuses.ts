import path from 'node:path';
import { flipFuses, FuseV1Options, FuseVersion } from '@electron/fuses';

/**
 * The Electron fuses of the packaged app, flipped in electron-builder's afterPack hook (scripts/after-pack.cjs), so
 * the shipped binary cannot be turned into a plain Node (ELECTRON_RUN_AS_NODE), be handed code through NODE_OPTIONS
 * or be debugged through --inspect arguments. The utility process that runs the runtime is not affected: it is
 * started by utilityProcess.fork, not as Node. Only used when packaging; the app itself never imports this module.
 */
export const ELECTRON_FUSES = {
  runAsNode: false,
  enableNodeOptionsEnvironmentVariable: false,
  enableNodeCliInspectArguments: false,
  enableCookieEncryption: true,
  onlyLoadAppFromAsar: true,
  enableEmbeddedAsarIntegrityValidation: true,
  grantFileProtocolExtraPrivileges: false,
} as const;

/** What electron-builder hands an afterPack hook (the part used here). */
export interface AfterPackContext {
  appOutDir: string;
  electronPlatformName: string;
  /** electron-builder's Arch: 3 is arm64. */
  arch: number;
  packager: { appInfo: { productFilename: string }; executableName?: string };
}

/** The Electron binary electron-builder just packed. */
export function electronBinary(context: AfterPackContext): string {
  const name = context.packager.appInfo.productFilename;
  switch (context.electronPlatformName) {
    case 'darwin':
    case 'mas':
      return path.join(context.appOutDir, `${name}.app`);
    case 'win32':
      return path.join(context.appOutDir, `${name}.exe`);
    default:
      return path.join(context.appOutDir, context.packager.executableName ?? name);
  }
}

/** The @electron/fuses configuration for one packed app. */
export function fuseConfig(context: AfterPackContext) {
  return {
    version: FuseVersion.V1,
    strictlyRequireAllFuses: false,
    // an unsigned arm64 macOS binary must be signed again (ad hoc) after its fuses change
    resetAdHocDarwinSignature: context.electronPlatformName === 'darwin' && context.arch === 3,
    [FuseV1Options.RunAsNode]: ELECTRON_FUSES.runAsNode,
    [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: ELECTRON_FUSES.enableNodeOptionsEnvironmentVariable,
    [FuseV1Options.EnableNodeCliInspectArguments]: ELECTRON_FUSES.enableNodeCliInspectArguments,
    [FuseV1Options.EnableCookieEncryption]: ELECTRON_FUSES.enableCookieEncryption,
    [FuseV1Options.OnlyLoadAppFromAsar]: ELECTRON_FUSES.onlyLoadAppFromAsar,
    [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: ELECTRON_FUSES.enableEmbeddedAsarIntegrityValidation,
    [FuseV1Options.GrantFileProtocolExtraPrivileges]: ELECTRON_FUSES.grantFileProtocolExtraPrivileges,
  } as const;
}

export async function flipElectronFuses(context: AfterPackContext): Promise<void> {
  await flipFuses(electronBinary(context), fuseConfig(context));
}
