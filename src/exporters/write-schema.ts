/**
 * Prints the report JSON Schema. Regenerate the committed file after changing the report model:
 *
 *   npx tsx src/exporters/write-schema.ts > public/report.schema.json
 *
 * (It writes to stdout so that src/exporters stays free of file-system imports; schema.test.ts fails
 * when the committed file differs from this output.)
 */
import { reportJsonSchemaText } from './schema';

process.stdout.write(reportJsonSchemaText());
