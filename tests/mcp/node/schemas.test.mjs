// Every JSON Schema the generator writes under generated/schemas/ is valid
// against the 2020-12 meta-schema (ajv): each schema file, the inputSchema
// and outputSchema of every tool in a tools list (tools.json), and the
// schemas of the OpenAI and Anthropic profiles (`parameters`,
// `input_schema`). profiles/gemini.json holds Gemini's OpenAPI 3.0 schema
// subset, not JSON Schema; codegen/tests/profiles.rs checks it against
// Gemini's rules. Until the generator has written that folder there is
// nothing to check; once it exists it must hold schemas.

import assert from 'node:assert/strict';
import { existsSync, globSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';

import { ROOT, newAjv } from './support.mjs';

const SCHEMA_DIR = join(ROOT, 'generated', 'schemas');

/** The schemas of a file: itself, or each tool's schemas for a tools list. */
function schemasIn(document) {
  if (!Array.isArray(document)) return [['', document]];
  return document.flatMap((tool) => {
    if (tool?.type === 'function') return [[` ${tool.function.name}.parameters`, tool.function.parameters]];
    if (tool?.input_schema) return [[` ${tool.name}.input_schema`, tool.input_schema]];
    assert.ok(tool?.name && tool.inputSchema, `not a tool: ${JSON.stringify(tool).slice(0, 200)}`);
    return ['inputSchema', 'outputSchema']
      .filter((key) => key in tool)
      .map((key) => [` ${tool.name}.${key}`, tool[key]]);
  });
}

test('generated schemas are valid JSON Schema 2020-12', () => {
  if (!existsSync(SCHEMA_DIR)) return;
  const paths = globSync('**/*.json', { cwd: SCHEMA_DIR })
    .filter((path) => !path.endsWith('gemini.json'))
    .sort();
  assert.ok(paths.length > 0, `${SCHEMA_DIR} exists but holds no .json file`);
  const ajv = newAjv();
  const invalid = [];
  for (const path of paths) {
    const document = JSON.parse(readFileSync(join(SCHEMA_DIR, path), 'utf8'));
    for (const [where, schema] of schemasIn(document)) {
      if (!ajv.validateSchema(schema)) {
        invalid.push(`${relative(ROOT, join(SCHEMA_DIR, path))}${where}: ${ajv.errorsText()}`);
      }
    }
  }
  assert.deepEqual(invalid, []);
});
