/**
 * The ASN.1 library, loaded with require. Its packages are CommonJS, and Node imports CommonJS
 * from ESM by lexing each module and every file it re-exports for names: about twice the cost
 * of requiring them (~130 ms against ~270 ms of CPU on the development machine), paid by every
 * process that loads envtest or the runtime. Bundlers follow these requires as any other.
 */
// ESM syntax that tsc compiles to require() in this .cts file (and that Vite, which runs the unit
// tests from source, can read as it is).
import * as csr from "@peculiar/asn1-csr";
import * as schema from "@peculiar/asn1-schema";
import * as x509 from "@peculiar/asn1-x509";
import * as asn1js from "asn1js";

export { asn1js, csr, schema, x509 };
