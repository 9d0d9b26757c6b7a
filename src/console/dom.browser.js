// The page's elements, and the one way text goes into it: textContent, never HTML. Every value
// shown comes from outside (Slack's answers, a relay backend's errors).

export const $ = (id) => document.getElementById(id);

/** An element with text (never HTML) and attributes. */
export function el(tag, text, attributes = {}) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}
