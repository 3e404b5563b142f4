/**
 * The schema walker: from TypeScript declarations to OpenAPI v3 schemas, syntax only.
 *
 * It follows a type reference to its declaration (same file, relative imports and re-exports),
 * maps keywords, literal unions, arrays, maps and object types as DESIGN.md §4 says, knows the
 * @opgen/runtime aliases by name and hands `@kubernetes/client-node` models to a core-type
 * provider. Markers are parsed from each node's JSDoc (once per node) and applied in controller-gen's
 * order: by priority, then source order, `items:` variants last; a field's own rules come before
 * the rules of its type. Everything it cannot express is an error naming the field path.
 */

import type { JSONSchemaProps, ValidationRule } from "@opgen/apimachinery/schema";
import type { ts } from "ts-morph";
import type { SourceFileInfo } from "../../source/project-sources.js";
import {
  API_VERSION_DESCRIPTION,
  cloneSchema,
  KIND_DESCRIPTION,
  RUNTIME_TYPES,
} from "./known-types.js";
import {
  CLIENT_NODE_MODULE,
  type Declaration,
  type Resolved,
  RUNTIME_MODULE,
  WalkerBase,
} from "./walker-base.js";
import {
  byteOrder,
  HOISTED,
  type HoistedKey,
  hoistConflicts,
  propertyName,
  type TypeResult,
  withNullable,
} from "./walker-util.js";

export class SchemaWalker extends WalkerBase {
  private readonly namedCache = new Map<ts.Node, JSONSchemaProps | null>();
  private readonly inProgress = new Set<ts.Node>();

  // ---- types ----

  /**
   * The schema of a type as written at `path` (for messages). `allowUnknown` silences the warning
   * for `unknown`/`any`/`object` when the field asked for it (XPreserveUnknownFields, Schemaless).
   */
  typeSchema(
    node: ts.TypeNode,
    file: SourceFileInfo,
    path: string,
    allowUnknown = false,
  ): TypeResult | undefined {
    const t = this.ts;
    const SK = t.SyntaxKind;
    const at = `field "${path}"`;
    switch (node.kind) {
      case SK.StringKeyword:
        return { schema: { type: "string" }, nullable: false };
      case SK.NumberKeyword:
        return { schema: { type: "number" }, nullable: false };
      case SK.BooleanKeyword:
        return { schema: { type: "boolean" }, nullable: false };
      case SK.UnknownKeyword:
      case SK.AnyKeyword:
      case SK.ObjectKeyword: {
        if (!allowUnknown) {
          this.report(
            "warning",
            file,
            node,
            `${at} has type ${node.getText(file.sf)}: any value is kept (x-kubernetes-preserve-unknown-fields); say @validation XPreserveUnknownFields to confirm`,
          );
        }
        return {
          schema:
            node.kind === SK.ObjectKeyword
              ? { type: "object", "x-kubernetes-preserve-unknown-fields": true }
              : { "x-kubernetes-preserve-unknown-fields": true },
          nullable: false,
        };
      }
      case SK.BigIntKeyword:
        return this.error(
          file,
          node,
          `${at}: bigint is not supported; use int64 from ${RUNTIME_MODULE}`,
        );
      case SK.SymbolKeyword:
        return this.error(file, node, `${at}: symbol is not supported in a Kubernetes API type`);
      case SK.ParenthesizedType:
        return this.typeSchema((node as ts.ParenthesizedTypeNode).type, file, path, allowUnknown);
      case SK.LiteralType: {
        const lit = (node as ts.LiteralTypeNode).literal;
        if (t.isStringLiteral(lit))
          return { schema: { type: "string", enum: [lit.text] }, nullable: false };
        if (lit.kind === SK.TrueKeyword || lit.kind === SK.FalseKeyword) {
          return {
            schema: { type: "boolean", enum: [lit.kind === SK.TrueKeyword] },
            nullable: false,
          };
        }
        return this.error(
          file,
          node,
          `${at}: literal type ${node.getText(file.sf)} is not supported; use a string-literal union or @validation Enum`,
        );
      }
      case SK.UnionType:
        return this.unionSchema(node as ts.UnionTypeNode, file, path, allowUnknown);
      case SK.ArrayType: {
        const items = this.typeSchema(
          (node as ts.ArrayTypeNode).elementType,
          file,
          `${path}[]`,
          allowUnknown,
        );
        return items && { schema: { type: "array", items: withNullable(items) }, nullable: false };
      }
      case SK.TypeOperator: {
        const op = node as ts.TypeOperatorNode;
        if (op.operator === SK.ReadonlyKeyword)
          return this.typeSchema(op.type, file, path, allowUnknown);
        return this.error(file, node, `${at}: type ${node.getText(file.sf)} is not supported`);
      }
      case SK.TupleType:
        return this.error(
          file,
          node,
          `${at}: tuple type ${node.getText(file.sf)} is not supported; use an array or an object`,
        );
      case SK.FunctionType:
      case SK.ConstructorType:
        return this.error(
          file,
          node,
          `${at}: function type ${node.getText(file.sf)} is not supported in a Kubernetes API type`,
        );
      case SK.TypeLiteral:
        return {
          schema: this.literalSchema(node as ts.TypeLiteralNode, file, path),
          nullable: false,
        };
      case SK.TypeReference:
        return this.referenceSchema(node as ts.TypeReferenceNode, file, path, allowUnknown);
      default:
        return this.error(file, node, `${at}: type ${node.getText(file.sf)} is not supported`);
    }
  }

  private unionSchema(
    node: ts.UnionTypeNode,
    file: SourceFileInfo,
    path: string,
    allowUnknown: boolean,
  ): TypeResult | undefined {
    const t = this.ts;
    const SK = t.SyntaxKind;
    let nullable = false;
    const strings: string[] = [];
    const others: ts.TypeNode[] = [];
    for (const member of node.types) {
      if (t.isLiteralTypeNode(member) && member.literal.kind === SK.NullKeyword) nullable = true;
      else if (member.kind === SK.UndefinedKeyword) continue;
      else if (t.isLiteralTypeNode(member) && t.isStringLiteral(member.literal))
        strings.push(member.literal.text);
      else others.push(member);
    }
    if (strings.length && !others.length)
      return { schema: { type: "string", enum: strings }, nullable };
    if (others.length === 1 && !strings.length) {
      const inner = this.typeSchema(others[0]!, file, path, allowUnknown);
      return inner && { schema: inner.schema, nullable: nullable || inner.nullable };
    }
    if (
      others.length === 2 &&
      !strings.length &&
      others.every(
        (o) =>
          o.kind === SK.TrueKeyword ||
          (t.isLiteralTypeNode(o) &&
            (o.literal.kind === SK.TrueKeyword || o.literal.kind === SK.FalseKeyword)),
      )
    ) {
      return { schema: { type: "boolean" }, nullable };
    }
    return this.error(
      file,
      node,
      `field "${path}": union type ${node.getText(file.sf)} is not supported; only unions of string literals (an enum) and T | null are`,
    );
  }

  private referenceSchema(
    node: ts.TypeReferenceNode,
    file: SourceFileInfo,
    path: string,
    allowUnknown: boolean,
  ): TypeResult | undefined {
    const t = this.ts;
    const at = `field "${path}"`;
    const args = node.typeArguments ?? [];
    if (t.isQualifiedName(node.typeName)) {
      const ns = node.typeName.left.getText(file.sf);
      const name = node.typeName.right.text;
      const module = this.index(file).namespaces.get(ns);
      if (!module)
        return this.error(file, node, `${at}: cannot find type ${node.typeName.getText(file.sf)}`);
      return this.resolvedSchema(this.resolveImport(file, module, name), node, file, path);
    }
    const name = node.typeName.text;
    const local = this.index(file).decls.has(name) || this.index(file).imports.has(name);
    if (!local) {
      if ((name === "Array" || name === "ReadonlyArray") && args.length === 1) {
        const items = this.typeSchema(args[0]!, file, `${path}[]`, allowUnknown);
        return items && { schema: { type: "array", items: withNullable(items) }, nullable: false };
      }
      if (name === "Readonly" && args.length === 1)
        return this.typeSchema(args[0]!, file, path, allowUnknown);
      if (name === "Record" && args.length === 2) {
        const key = args[0]!;
        if (!this.isStringKey(key, file)) {
          return this.error(
            file,
            key,
            `${at}: map keys must be strings, got ${key.getText(file.sf)}`,
          );
        }
        const value = this.typeSchema(args[1]!, file, `${path}[*]`, allowUnknown);
        return (
          value && {
            schema: { type: "object", additionalProperties: withNullable(value) },
            nullable: false,
          }
        );
      }
      if (name === "Date")
        return this.error(
          file,
          node,
          `${at}: Date is not supported; use Time from ${RUNTIME_MODULE} (an RFC 3339 string)`,
        );
      if (["Map", "Set", "Promise", "Function", "WeakMap", "WeakSet"].includes(name)) {
        return this.error(file, node, `${at}: ${name} is not supported in a Kubernetes API type`);
      }
      if (
        [
          "Partial",
          "Required",
          "Pick",
          "Omit",
          "Exclude",
          "Extract",
          "NonNullable",
          "ReturnType",
        ].includes(name)
      ) {
        return this.error(
          file,
          node,
          `${at}: utility type ${name}<...> is not supported; declare the type explicitly`,
        );
      }
    }
    if (args.length)
      return this.error(
        file,
        node,
        `${at}: generic type ${node.getText(file.sf)} is not supported`,
      );
    return this.resolvedSchema(this.resolveName(file, name), node, file, path);
  }

  private isStringKey(node: ts.TypeNode, file: SourceFileInfo): boolean {
    const t = this.ts;
    if (node.kind === t.SyntaxKind.StringKeyword) return true;
    if (t.isUnionTypeNode(node)) return node.types.every((m) => this.isStringKey(m, file));
    if (t.isLiteralTypeNode(node)) return t.isStringLiteral(node.literal);
    if (t.isTypeReferenceNode(node) && t.isIdentifier(node.typeName)) {
      const r = this.resolveName(file, node.typeName.text);
      if (r.kind === "decl") {
        if (t.isTypeAliasDeclaration(r.decl)) return this.isStringKey(r.decl.type, r.file);
        if (t.isEnumDeclaration(r.decl)) return true;
      }
    }
    return false;
  }

  private resolvedSchema(
    r: Resolved,
    node: ts.Node,
    file: SourceFileInfo,
    path: string,
  ): TypeResult | undefined {
    const at = `field "${path}"`;
    switch (r.kind) {
      case "none":
        return this.error(file, node, `${at}: ${r.message}`);
      case "runtime":
        return { schema: cloneSchema(RUNTIME_TYPES[r.name]!), nullable: false };
      case "core": {
        const schema = this.options.coreTypes?.schema(r.name);
        if (!schema)
          return this.error(
            file,
            node,
            `${at}: ${r.name} from ${CLIENT_NODE_MODULE} is not a type of the Kubernetes ${this.options.coreTypes?.minor} API opgen generates schemas from; use a ${this.options.coreTypes?.minor} type or declare the fields yourself`,
          );
        return { schema, nullable: false };
      }
      case "decl": {
        const schema = this.namedSchema(r.decl, r.file, path, node, file);
        return schema && { schema, nullable: schema.nullable === true };
      }
    }
  }

  /** The schema of a declared type: its structure, its doc as description, its type markers. */
  namedSchema(
    decl: Declaration,
    file: SourceFileInfo,
    path: string,
    usedAt?: ts.Node,
    usedIn?: SourceFileInfo,
  ): JSONSchemaProps | undefined {
    const cached = this.namedCache.get(decl);
    if (cached !== undefined) return cached ? cloneSchema(cached) : undefined;
    const t = this.ts;
    const name = decl.name?.text ?? "(anonymous)";
    if (this.inProgress.has(decl)) {
      return this.error(
        usedIn ?? file,
        usedAt ?? decl,
        `field "${path}": recursive type ${name} is not supported (a CRD schema cannot refer to itself)`,
      );
    }
    this.inProgress.add(decl);
    let schema: JSONSchemaProps | undefined;
    if (t.isInterfaceDeclaration(decl) || t.isClassDeclaration(decl)) {
      schema = this.objectSchema(decl, file, path);
    } else if (t.isTypeAliasDeclaration(decl)) {
      if (decl.typeParameters?.length) {
        schema = this.error(file, decl, `type ${name}: generic types are not supported`);
      } else {
        // A type-level XPreserveUnknownFields (or XEmbeddedResource) says `unknown` is meant.
        const explicit = this.markersOf(file, decl, "type").some(
          (m) =>
            m.def.name === "validation XPreserveUnknownFields" ||
            m.def.name === "validation XEmbeddedResource",
        );
        const r = this.typeSchema(decl.type, file, path, explicit);
        schema = r && withNullable(r);
      }
    } else {
      schema = this.enumSchema(decl, file);
    }
    this.inProgress.delete(decl);
    if (schema) {
      const doc = this.description(file, decl);
      if (doc) schema.description = doc;
      this.applyMarkers(schema, this.markersOf(file, decl, "type"), `type ${name}`);
    }
    this.namedCache.set(decl, schema ?? null);
    return schema && cloneSchema(schema);
  }

  private enumSchema(decl: ts.EnumDeclaration, file: SourceFileInfo): JSONSchemaProps | undefined {
    const values: string[] = [];
    for (const m of decl.members) {
      if (!m.initializer || !this.ts.isStringLiteral(m.initializer)) {
        return this.error(
          file,
          m,
          `enum ${decl.name.text}: member ${m.name.getText(file.sf)} needs a string value (numeric enums are not supported)`,
        );
      }
      values.push(m.initializer.text);
    }
    return { type: "string", enum: values };
  }

  /** Members of an interface or class, including those of the interfaces/classes it extends. */
  private members(
    decl: ts.InterfaceDeclaration | ts.ClassDeclaration,
    file: SourceFileInfo,
    seen = new Set<ts.Node>(),
  ): { member: ts.ClassElement | ts.TypeElement; file: SourceFileInfo }[] {
    const t = this.ts;
    const out: { member: ts.ClassElement | ts.TypeElement; file: SourceFileInfo }[] = [];
    seen.add(decl);
    for (const clause of decl.heritageClauses ?? []) {
      if (clause.token !== t.SyntaxKind.ExtendsKeyword) continue;
      for (const h of clause.types) {
        if (!t.isIdentifier(h.expression)) {
          this.error(file, h, `type ${decl.name?.text}: cannot extend ${h.getText(file.sf)}`);
          continue;
        }
        const r = this.resolveName(file, h.expression.text);
        if (
          r.kind === "decl" &&
          (t.isInterfaceDeclaration(r.decl) || t.isClassDeclaration(r.decl)) &&
          !seen.has(r.decl)
        ) {
          out.push(...this.members(r.decl, r.file, seen));
        } else if (r.kind !== "decl" && /^(KubeObject|KubernetesObject)$/.test(h.expression.text)) {
          // apiVersion/kind/metadata of a root come from TypeMeta/ObjectMeta; nothing to inline.
        } else if (r.kind !== "decl") {
          this.error(
            file,
            h,
            `type ${decl.name?.text}: cannot inline the members of ${h.getText(file.sf)}`,
          );
        }
      }
    }
    for (const member of decl.members) out.push({ member, file });
    return out;
  }

  private literalSchema(
    node: ts.TypeLiteralNode,
    file: SourceFileInfo,
    path: string,
  ): JSONSchemaProps {
    const t = this.ts;
    const index = node.members.filter(t.isIndexSignatureDeclaration);
    if (index.length && index.length === node.members.length) {
      const sig = index[0]!;
      const keyType = sig.parameters[0]?.type;
      if (!keyType || !this.isStringKey(keyType, file)) {
        this.error(file, sig, `field "${path}": map keys must be strings`);
        return { type: "object" };
      }
      const value = sig.type && this.typeSchema(sig.type, file, `${path}[*]`);
      return { type: "object", ...(value ? { additionalProperties: withNullable(value) } : {}) };
    }
    return this.buildObject(
      node.members.map((member) => ({ member, file })),
      path,
    );
  }

  objectSchema(
    decl: ts.InterfaceDeclaration | ts.ClassDeclaration,
    file: SourceFileInfo,
    path: string,
  ): JSONSchemaProps {
    return this.buildObject(this.members(decl, file), path);
  }

  private buildObject(
    members: { member: ts.ClassElement | ts.TypeElement; file: SourceFileInfo }[],
    path: string,
    root = false,
  ): JSONSchemaProps {
    const t = this.ts;
    const properties: Record<string, JSONSchemaProps> = {};
    const required = new Set<string>();
    const parentRules: ValidationRule[] = [];
    for (const { member, file } of members) {
      if (t.isPropertySignature(member) || t.isPropertyDeclaration(member)) {
        if (
          t.isPropertyDeclaration(member) &&
          member.modifiers?.some((m) => m.kind === t.SyntaxKind.StaticKeyword)
        )
          continue;
        const name = propertyName(t, member.name);
        if (name === undefined) {
          this.error(
            file,
            member.name,
            `field "${path}": computed property names are not supported`,
          );
          continue;
        }
        const fieldPath = path ? `${path}.${name}` : name;
        if (root && (name === "apiVersion" || name === "kind" || name === "metadata")) {
          properties[name] =
            name === "metadata"
              ? { type: "object" }
              : {
                  description: name === "kind" ? KIND_DESCRIPTION : API_VERSION_DESCRIPTION,
                  type: "string",
                };
          required.delete(name);
          continue;
        }
        const field = this.fieldSchema(member, file, fieldPath);
        if (!field) continue;
        properties[name] = field.schema;
        if (field.required) required.add(name);
        else required.delete(name);
        if (field.immutable && !field.required) {
          parentRules.push({
            message: `field ${name} is immutable once set`,
            rule: `!has(oldSelf.${name}) || has(self.${name})`,
          });
        }
      } else if (
        t.isMethodSignature(member) ||
        t.isCallSignatureDeclaration(member) ||
        t.isConstructSignatureDeclaration(member)
      ) {
        this.error(
          file,
          member,
          `field "${path ? `${path}.` : ""}${member.name?.getText(file.sf) ?? "()"}": methods are not supported in a Kubernetes API type`,
        );
      } else if (t.isIndexSignatureDeclaration(member)) {
        this.error(
          file,
          member,
          `field "${path}": an index signature cannot be mixed with named fields`,
        );
      }
      // Class methods, accessors and constructors are behaviour, not data: not part of the schema.
    }
    const schema: JSONSchemaProps = { type: "object" };
    if (root) {
      for (const name of ["apiVersion", "kind", "metadata"]) {
        properties[name] ??=
          name === "metadata"
            ? { type: "object" }
            : {
                description: name === "kind" ? KIND_DESCRIPTION : API_VERSION_DESCRIPTION,
                type: "string",
              };
      }
    }
    if (Object.keys(properties).length) schema.properties = properties;
    if (required.size) schema.required = [...required].sort(byteOrder);
    if (parentRules.length) schema["x-kubernetes-validations"] = parentRules;
    return schema;
  }

  /** A field: its type's schema, its doc, its markers; whether it is required. */
  fieldSchema(
    member: ts.PropertySignature | ts.PropertyDeclaration,
    file: SourceFileInfo,
    path: string,
  ): { schema: JSONSchemaProps; required: boolean; immutable: boolean } | undefined {
    const markers = this.markersOf(file, member, "field");
    const has = (name: string) => markers.some((m) => m.def.name === name);
    const schemaless = has("validation Schemaless");
    let schema: JSONSchemaProps;
    if (schemaless) {
      schema = {};
    } else {
      if (!member.type) return this.error(file, member, `field "${path}" has no type annotation`);
      // Saying what the value is (kept as is, or a whole object) silences the `unknown` warning.
      const explicit = ["XPreserveUnknownFields", "XEmbeddedResource"].some(
        (name) => has(`validation ${name}`) || has(`validation items:${name}`),
      );
      const r = this.typeSchema(member.type, file, path, explicit);
      if (!r) return undefined;
      schema = r.schema;
      if (r.nullable) schema.nullable = true;
    }
    const doc = this.description(file, member);
    if (doc) schema.description = doc;
    const typeRules = schema["x-kubernetes-validations"];
    delete schema["x-kubernetes-validations"];
    const fromType: Partial<Record<HoistedKey, unknown>> = {};
    for (const key of HOISTED) if (schema[key] !== undefined) fromType[key] = schema[key];
    this.applyMarkers(schema, markers, `field "${path}"`);
    hoistConflicts(schema, fromType);
    if (typeRules)
      schema["x-kubernetes-validations"] = [
        ...(schema["x-kubernetes-validations"] ?? []),
        ...typeRules,
      ];
    let required: boolean;
    if (has("required")) required = true;
    else if (has("optional")) required = false;
    else if (this.options.optionalByDefault(file)) required = false;
    else required = !member.questionToken;
    return { schema, required, immutable: has("immutable") };
  }

  /** The schema of a root kind: TypeMeta/ObjectMeta fields, the rest as fields, root markers applied. */
  rootSchema(
    decl: ts.InterfaceDeclaration | ts.ClassDeclaration,
    file: SourceFileInfo,
  ): JSONSchemaProps {
    const schema = this.buildObject(this.members(decl, file), "", true);
    const doc = this.description(file, decl);
    const out: JSONSchemaProps = doc ? { description: doc, ...schema } : schema;
    this.applyMarkers(out, this.markersOf(file, decl, "root"), `kind ${decl.name?.text}`);
    return out;
  }
}
