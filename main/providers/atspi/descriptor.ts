import { qualifiedRole } from '../../../shared/model/namespaces.js';
import type { ProviderDescriptor } from '../../core/provider.js';
import { ATSPI_ROLE_NAMES, mapRoleName } from './roles.js';

export const ATSPI_DESCRIPTOR: ProviderDescriptor = {
  id: 'atspi',
  displayName: 'AT-SPI2 (Linux accessibility bus)',
  technology: 'AT-SPI2',
  kind: 'native',
  eventCapabilities: 'StructureWithProperties',
  optIn: false,
  defaultOn: ['linux'],
  applicationsOnlyAtTop: true,
  names: {
    elements: [
      ...new Set(ATSPI_ROLE_NAMES.map(mapRoleName).map((mapped) => qualifiedRole(mapped.namespace, mapped.role))),
    ],
  },
};
