// ESLint rule tooltax/no-inherited-lookup (type-aware, run on src/ by eslint.config.js).
//
// A plain object used as a dictionary inherits Object.prototype: looked up with a key that
// comes from a catalog, a task file or a message, `dict["constructor"]` is a function,
// `"toString" in dict` is true, and `dict["__proto__"] = v` replaces the prototype instead of
// storing v. The rule reports `object[key]` (read, write or delete) and `key in object` where
// the object's type has a string index signature (Record<string, T>, { [k: string]: T }) and
// the key's type is an open string (not a union of known literals). Use a Map, build the object
// with Object.fromEntries (own properties only) and read it with Object.hasOwn(object, key) ?
// object[key] : undefined — an access guarded by Object.hasOwn on the same object and key is
// not reported.
import ts from 'typescript';
import { ESLintUtils } from '@typescript-eslint/utils';

const OPEN_KEY = ts.TypeFlags.String | ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.TemplateLiteral | ts.TypeFlags.StringMapping;

function hasStringIndex(checker, type) {
  const apparent = checker.getApparentType(type);
  if (checker.isArrayLikeType(apparent)) return false;
  return (apparent.isUnion() ? apparent.types : [apparent]).some((t) => checker.getIndexInfoOfType(t, ts.IndexKind.String));
}

function isOpenKey(type) {
  return (type.isUnion() ? type.types : [type]).some((t) => t.flags & OPEN_KEY);
}

/** `Object.hasOwn(object, key)`, alone or in an `&&` chain, with the same source text as the access. */
function guards(test, objectText, keyText, text) {
  if (!test) return false;
  if (test.type === 'LogicalExpression' && test.operator === '&&')
    return guards(test.left, objectText, keyText, text) || guards(test.right, objectText, keyText, text);
  return (
    test.type === 'CallExpression' &&
    text(test.callee) === 'Object.hasOwn' &&
    test.arguments.length === 2 &&
    text(test.arguments[0]) === objectText &&
    text(test.arguments[1]) === keyText
  );
}

function isGuarded(node, objectText, keyText, text) {
  for (let child = node, parent = node.parent; parent; child = parent, parent = parent.parent) {
    if (parent.type === 'ConditionalExpression' && parent.consequent === child && guards(parent.test, objectText, keyText, text))
      return true;
    if (parent.type === 'IfStatement' && parent.consequent === child && guards(parent.test, objectText, keyText, text)) return true;
    if (
      parent.type === 'LogicalExpression' &&
      parent.operator === '&&' &&
      parent.right === child &&
      guards(parent.left, objectText, keyText, text)
    )
      return true;
    if (parent.type.startsWith('Function') || parent.type === 'ArrowFunctionExpression') return false;
  }
  return false;
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'no lookup of an open string key on a plain-object dictionary (it reaches Object.prototype)' },
    messages: {
      lookup:
        '{{what}} on a plain object ({{type}}) with an open string key: "constructor", "toString" or "__proto__" reach Object.prototype. Use a Map, or Object.hasOwn(object, key) first.',
    },
    schema: [],
  },
  create(context) {
    const services = ESLintUtils.getParserServices(context);
    const checker = services.program.getTypeChecker();
    const text = (n) => context.sourceCode.getText(n);
    const check = (node, objectNode, keyNode, what) => {
      const objectType = services.getTypeAtLocation(objectNode);
      if (!hasStringIndex(checker, objectType) || !isOpenKey(services.getTypeAtLocation(keyNode))) return;
      if (isGuarded(node, text(objectNode), text(keyNode), text)) return;
      context.report({ node, messageId: 'lookup', data: { what, type: checker.typeToString(objectType).slice(0, 60) } });
    };
    return {
      MemberExpression(node) {
        if (node.computed) check(node, node.object, node.property, `${text(node.object)}[${text(node.property)}]`);
      },
      BinaryExpression(node) {
        if (node.operator === 'in') check(node, node.right, node.left, `${text(node.left)} in ${text(node.right)}`);
      },
    };
  },
};
