import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

// The layering allowlist of eslint.config.js, checked on files that do not exist: what lint says of each import.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const eslint = new ESLint({ cwd: root });

async function layerErrors(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import ${JSON.stringify(source)};\n`, { filePath: path.join(root, file) });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'boundaries/dependencies' || message.ruleId === 'no-restricted-imports')
    .map((message) => message.message);
}

async function refused(file: string, source: string): Promise<void> {
  assert.notDeepEqual(await layerErrors(file, source), [], `${file} importing ${source} should be refused`);
}

async function allowed(file: string, source: string): Promise<void> {
  assert.deepEqual(await layerErrors(file, source), [], `${file} importing ${source} should be allowed`);
}

describe('the layers are an allowlist enforced by lint', () => {
  it('shared/ imports neither Node modules nor main/', async () => {
    await refused('shared/model/x.ts', 'node:os');
    await refused('shared/model/x.ts', 'os');
    await refused('shared/model/x.ts', '../../main/runtime/runtime.js');
    await allowed('shared/model/x.ts', './values.js');
    await allowed('shared/model/x.ts', 'zod');
  });

  it('the runtime imports the core, never the front ends or a concrete backend', async () => {
    await refused('main/runtime/x.ts', '../api/dispatcher.js');
    await refused('main/runtime/x.ts', '../hosts/browser/server.js');
    await refused('main/runtime/x.ts', '../cli/command-runtime.js');
    await refused('main/runtime/x.ts', '../providers/mock/register.js');
    await allowed('main/runtime/x.ts', '../core/registry.js');
  });

  it('the core imports only shared/', async () => {
    await refused('main/core/x.ts', '../runtime/runtime.js');
    await allowed('main/core/x.ts', '../../shared/model/errors.js');
  });

  it('only the entry points link backends in; the front ends may use the flags', async () => {
    await refused('main/cli/commands/x.ts', '../../backends/linux.js');
    await refused('main/hosts/browser/x.ts', '../../backends/mock.js');
    await allowed('main/cli/index.ts', '../backends/linux.js');
    await allowed('main/electron/runtime-host-main.ts', '../backends/linux.js');
    await allowed('main/hosts/browser/x.ts', '../../backends/flags.js');
  });

  it('the renderer imports shared/ only; its tests may start the real dispatcher', async () => {
    await refused('renderer/stores/x.ts', '../../main/api/dispatcher.js');
    await refused('renderer/stores/x.ts', 'node:fs');
    await allowed('renderer/stores/x.ts', '../../shared/api/schema.js');
    await allowed('renderer/test/x.test.ts', '../../main/api/dispatcher.js');
  });

  it('the mock backend is one element: its halves share the file, no other backend or front end reaches it', async () => {
    await allowed('main/platform/mock/x.ts', '../../providers/mock/default-tree.js');
    await refused('main/platform/x11/x.ts', '../../providers/mock/default-tree.js');
    await refused('main/platform/mock/x.ts', '../../runtime/runtime.js');
    await refused('main/cli/x.ts', '../providers/mock/file-tree.js');
  });

  it('the D-Bus client is a layer of its own: the AT-SPI provider and the virtual desktop use it', async () => {
    await allowed('main/providers/atspi/x.ts', '../../dbus/dbus-client.js');
    await allowed('main/desktop/x.ts', '../dbus/dbus-client.js');
    await refused('main/desktop/x.ts', '../providers/atspi/accessibility-status.js');
    await refused('main/dbus/x.ts', '../providers/atspi/provider.js');
    await refused('main/platform/x11/x.ts', '../../runtime/input/keyboard-sequence.js');
  });

  it('the services sit between the engine and the front ends; none of them reaches up to the CLI', async () => {
    await allowed('main/services/x.ts', '../xpath/xpath-service.js');
    await allowed('main/api/x.ts', '../services/locate.js');
    await allowed('main/cli/commands/x.ts', '../../services/hit-test.js');
    await refused('main/services/x.ts', '../api/host-context.js');
    await refused('main/services/x.ts', '../cli/options.js');
    await refused('main/api/dispatcher.ts', '../cli/options.js');
    await refused('main/api/host-context.ts', '../providers/atspi/index.js');
    await refused('main/cli/commands/info.ts', '../../providers/atspi/index.js');
    await refused('main/hosts/browser/command.ts', '../../cli/options.js');
  });

  it('the MCP server stands on the services like the CLI; it reaches neither the CLI, the hosts nor a provider', async () => {
    await allowed('main/mcp/x.ts', '../services/locate.js');
    await allowed('main/mcp/x.ts', '../backends/flags.js');
    await allowed('main/cli/index.ts', '../mcp/command.js');
    await refused('main/mcp/x.ts', '../cli/options.js');
    await refused('main/mcp/x.ts', '../hosts/browser/server.js');
    await refused('main/mcp/x.ts', '../providers/atspi/index.js');
    await refused('main/mcp/x.ts', '../backends/linux.js');
    await refused('main/services/x.ts', '../mcp/context.js');
  });
});
