// electron-builder's afterPack hook (electron-builder.yml): flips the Electron fuses of the packed binary before it
// is signed. The fuses are listed in main/electron/fuses.ts (built to dist/ by `npm run dist` first).
const path = require('node:path');
const { pathToFileURL } = require('node:url');

exports.default = async function afterPack(context) {
  const fuses = path.join(__dirname, '..', 'dist', 'main', 'electron', 'fuses.js');
  const { flipElectronFuses } = await import(pathToFileURL(fuses).href);
  await flipElectronFuses(context);
};
