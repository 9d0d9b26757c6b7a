/**
 * A small JSON Schema (draft-07) checker: the keywords Slack's manifest schema uses
 * (test/support/slackManifestSchema/), nothing more. It answers every violation as `path: why`;
 * a keyword it does not know, other than the annotations, is itself a violation, so a newer schema
 * cannot pass unread.
 */
type Schema = boolean | Record<string, unknown>;

const ANNOTATIONS = new Set([
  "$schema",
  "$id",
  "$comment",
  "title",
  "description",
  "default",
  "examples",
  "format",
  "_note",
  "regex",
]);

const typeOf = (value: unknown) =>
  Array.isArray(value) ? "array" : value === null ? "null" : Number.isInteger(value) ? "integer" : typeof value;

const isType = (value: unknown, type: string) =>
  type === typeOf(value) || (type === "number" && typeof value === "number") || (type === "object" && typeOf(value) === "object");

export function validate(root: Record<string, unknown>, value: unknown): string[] {
  const resolve = (ref: string): Schema => {
    if (!ref.startsWith("#/")) return { $unresolved: ref };
    return ref
      .slice(2)
      .split("/")
      .reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], root) as Schema;
  };

  function check(schema: Schema, value: unknown, path: string): string[] {
    if (schema === true) return [];
    if (schema === false) return [`${path}: not allowed`];
    const errors: string[] = [];
    const fail = (why: string) => errors.push(`${path || "/"}: ${why}`);
    const object = typeOf(value) === "object" ? (value as Record<string, unknown>) : undefined;
    for (const [keyword, rule] of Object.entries(schema)) {
      if (ANNOTATIONS.has(keyword) || keyword === "definitions") continue;
      switch (keyword) {
        case "$ref":
          errors.push(...check(resolve(rule as string), value, path));
          break;
        case "type": {
          const types = Array.isArray(rule) ? (rule as string[]) : [rule as string];
          if (!types.some((type) => isType(value, type))) fail(`is ${typeOf(value)}, not ${types.join(" | ")}`);
          break;
        }
        case "enum":
          if (!(rule as unknown[]).some((option) => JSON.stringify(option) === JSON.stringify(value)))
            fail(`${JSON.stringify(value)} is not one of the enum`);
          break;
        case "const":
          if (JSON.stringify(rule) !== JSON.stringify(value)) fail(`is not ${JSON.stringify(rule)}`);
          break;
        case "required":
          for (const key of rule as string[]) if (object && !(key in object)) fail(`misses "${key}"`);
          break;
        case "properties":
          if (object)
            for (const [key, sub] of Object.entries(rule as Record<string, Schema>))
              if (key in object) errors.push(...check(sub, object[key], `${path}/${key}`));
          break;
        case "patternProperties":
          if (object)
            for (const [pattern, sub] of Object.entries(rule as Record<string, Schema>))
              for (const key of Object.keys(object))
                if (new RegExp(pattern, "u").test(key)) errors.push(...check(sub, object[key], `${path}/${key}`));
          break;
        case "additionalProperties": {
          if (!object) break;
          const named = Object.keys((schema.properties as object) ?? {});
          const patterns = Object.keys((schema.patternProperties as object) ?? {}).map((p) => new RegExp(p, "u"));
          for (const key of Object.keys(object))
            if (!named.includes(key) && !patterns.some((p) => p.test(key)))
              errors.push(...check(rule as Schema, object[key], `${path}/${key}`));
          break;
        }
        case "items":
          if (Array.isArray(value))
            for (const [i, item] of value.entries()) errors.push(...check(rule as Schema, item, `${path}/${i}`));
          break;
        case "anyOf":
        case "oneOf": {
          const passing = (rule as Schema[]).filter((sub) => check(sub, value, path).length === 0).length;
          if (keyword === "anyOf" ? passing === 0 : passing !== 1) fail(`matches ${passing} of ${keyword}`);
          break;
        }
        case "allOf":
          for (const sub of rule as Schema[]) errors.push(...check(sub, value, path));
          break;
        case "pattern":
          if (typeof value === "string" && !new RegExp(rule as string, "u").test(value)) fail(`does not match ${rule}`);
          break;
        case "minLength":
        case "maxLength":
          if (
            typeof value === "string" &&
            (keyword === "minLength" ? value.length < (rule as number) : value.length > (rule as number))
          )
            fail(`length ${value.length} breaks ${keyword} ${rule}`);
          break;
        case "minItems":
        case "maxItems":
          if (
            Array.isArray(value) &&
            (keyword === "minItems" ? value.length < (rule as number) : value.length > (rule as number))
          )
            fail(`${value.length} items break ${keyword} ${rule}`);
          break;
        case "minProperties":
        case "maxProperties": {
          const count = object ? Object.keys(object).length : 0;
          if (object && (keyword === "minProperties" ? count < (rule as number) : count > (rule as number)))
            fail(`${count} properties break ${keyword} ${rule}`);
          break;
        }
        case "uniqueItems":
          if (rule && Array.isArray(value) && new Set(value.map((v) => JSON.stringify(v))).size !== value.length)
            fail("items are not unique");
          break;
        default:
          fail(`the checker does not know the keyword "${keyword}"`);
      }
    }
    return errors;
  }
  return check(root, value, "");
}
