import path from 'node:path';

/**
 * What a host serves from the built renderer directory: the UI bundle only. Tests compiled next to it, dot files and
 * (unless asked for) source maps stay private: a host hands out the UI, not the build.
 */
export interface UiFileOptions {
  /** Serve `*.map` too (for debugging the UI). */
  sourceMaps?: boolean;
}

/** The file inside `rendererDir` a request path names, when the host may serve it; undefined otherwise. */
export function uiFile(rendererDir: string, requestPath: string, options: UiFileOptions = {}): string | undefined {
  const relative = requestPath === '/' || requestPath === '' ? 'index.html' : requestPath.replace(/^\/+/, '');
  const root = path.resolve(rendererDir);
  const file = path.resolve(root, relative);
  if (!file.startsWith(root + path.sep)) return undefined;
  const parts = path.relative(root, file).split(path.sep);
  if (parts.some((part) => part === 'test' || part.startsWith('.'))) return undefined;
  if (/\.test\.[cm]?js$/.test(file)) return undefined;
  if (file.endsWith('.map') && !options.sourceMaps) return undefined;
  return file;
}
