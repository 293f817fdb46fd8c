// Facts about the pages in e2e/fixtures that tests assert on.

/** The value pre-filled into controls.html's password field. It must never appear in any output. */
export const FIXTURE_PASSWORD = 'Hunter2-PlatynUI-Secret';

/** Title of controls.html once its script ran. */
export const CONTROLS_READY_TITLE = 'PlatynUI Controls Fixture (ready)';

/** Title prefix of table.html once the table is built; the full title is "... (ready, N rows)". */
export const TABLE_READY_TITLE = 'PlatynUI Table Fixture (ready';

/** The exact ready title of table.html for `rows` rows. */
export function tableReadyTitle(rows: number): string {
  return `PlatynUI Table Fixture (ready, ${rows} rows)`;
}
