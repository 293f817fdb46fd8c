import type { FileTreeReader } from '../../core/file-tree.js';
import { mockDesktopInfo } from '../../platform/mock/mock-platform.js';
import { MockFileTree } from './file-tree.js';
import { MOCK_DESCRIPTOR, loadMockTable } from './mock-provider.js';

/** The mock backend's file read directly (both halves: the provider's tree, the platform's desktop). */
export const mockFileTreeReader: FileTreeReader = {
  backendId: MOCK_DESCRIPTOR.id,
  read: (file, options) => new MockFileTree(loadMockTable(file, options)),
  desktopInfo: (file, options) => mockDesktopInfo(file, options.maxDepth),
};
