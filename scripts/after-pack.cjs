// electron-builder's afterPack hook (electron-builder.yml): flips the Electron fuses of the packed binary before it
// is signed. The fuses are listed in main/electron/fuses.ts (built to dist/ by `npm run dist` first).
exports.default = async function afterPack(context) {
  const { flipElectronFuses } = await import('../dist/main/electron/fuses.js');
  await flipElectronFuses(context);
};
