#!/usr/bin/env node
// Thin launcher: everything heavy is imported lazily by the command that needs it.
import { main } from "../dist/cli.js";

process.exitCode = await main(process.argv);
