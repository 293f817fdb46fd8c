// Reading a `--config` file (zod, loaded only for a run that has one: see config.ts for the format).
import { z } from 'zod';
import { CheckConfigError, type CheckConfig } from './config.js';
import { SEVERITIES, type Severity } from './model.js';
import { RULES } from './rules/index.js';

const ruleIds = RULES.map((rule) => rule.id) as [string, ...string[]];
const SettingSchema = z.enum([...SEVERITIES, 'off']);
const ConfigSchema = z
  .object({
    rules: z.partialRecord(z.enum(ruleIds), SettingSchema).optional(),
    ignore: z
      .array(
        z.strictObject({
          locator: z.string().min(1),
          rule: z.enum(ruleIds).optional(),
          reason: z.string().optional(),
        }),
      )
      .optional(),
  })
  .strict();

/** Parses a config file's text; errors name the file, the JSON path and what was expected. */
export function parseCheckConfig(text: string, source: string): CheckConfig {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CheckConfigError(`${source}: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const parsed = ConfigSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? issue.path.join('.') : '(top level)';
    const unknownRule = issue.code === 'unrecognized_keys' && issue.path[0] === 'rules';
    const known = unknownRule ? ` (known rules: ${ruleIds.join(', ')})` : '';
    throw new CheckConfigError(`${source}: ${where}: ${issue.message}${known}`);
  }
  return {
    rules: new Map(
      Object.entries(parsed.data.rules ?? {}).filter(
        (entry): entry is [string, Severity | 'off'] => entry[1] !== undefined,
      ),
    ),
    ignore: (parsed.data.ignore ?? []).map((entry) => ({ ...entry })),
  };
}
