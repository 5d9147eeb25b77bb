// The smallest instance of a tool's inputSchema: required properties only,
// the first enum value or anyOf branch, the lower bound of a range, the
// shortest string (from `pattern_samples` when the schema has a pattern).
// The same rules as tests/mcp/python/instances.py.

export function minimalInstance(schema, samples, root = schema) {
  if ('$ref' in schema) {
    const prefix = '#/$defs/';
    if (!schema.$ref.startsWith(prefix)) throw new Error(`unsupported $ref ${schema.$ref}`);
    return minimalInstance(root.$defs[schema.$ref.slice(prefix.length)], samples, root);
  }
  if ('const' in schema) return schema.const;
  if ('enum' in schema) return schema.enum[0];
  if ('anyOf' in schema) {
    return minimalInstance(schema.anyOf.find((branch) => branch.type !== 'null'), samples, root);
  }
  const kind = Array.isArray(schema.type) ? schema.type.find((k) => k !== 'null') : schema.type;
  switch (kind) {
    case 'object': {
      const properties = schema.properties ?? {};
      return Object.fromEntries((schema.required ?? [])
        .map((name) => [name, minimalInstance(properties[name], samples, root)]));
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => minimalInstance(schema.items ?? {}, samples, root));
    case 'string':
      if ('pattern' in schema) {
        if (!(schema.pattern in samples)) throw new Error(`add a sample for the pattern ${schema.pattern} to cases.json`);
        return samples[schema.pattern];
      }
      if (schema.contentEncoding === 'base64') return (schema.minLength ?? 0) > 0 ? 'AA==' : '';
      return 'a'.repeat(schema.minLength ?? 0);
    case 'integer':
    case 'number':
      return schema.minimum ?? 0;
    case 'boolean':
      return false;
    default:
      throw new Error(`no minimal instance for ${JSON.stringify(schema)}`);
  }
}
