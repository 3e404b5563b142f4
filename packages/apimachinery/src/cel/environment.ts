/**
 * The CEL environment kube-apiserver 1.32 compiles CRD validation rules in (`apiserver/pkg/cel/
 * environment/base.go` at the 1.31 compatibility version new rules are held to): cel-js's
 * standard library with optional types, plus Kubernetes' libraries (strings v2, lists, regex,
 * URLs, quantity, IP/CIDR, sets, format, and authz for admission). `self` and `oldSelf` are the
 * only variables of CRD rules; any other identifier is an undeclared reference, as in kube.
 */
import { Environment } from "@marcbachmann/cel-js";
import { registerAuthz } from "./library/authz.js";
import { registerFormat } from "./library/format.js";
import { registerLists } from "./library/lists.js";
import { registerNetwork } from "./library/network.js";
import { registerQuantity } from "./library/quantity.js";
import { registerRegex } from "./library/regex.js";
import { registerSets } from "./library/sets.js";
import { registerStrings } from "./library/strings.js";
import { registerUrls } from "./library/urls.js";

/** The libraries without variables: clone it and declare `self` and `oldSelf`. */
export function kubernetesEnvironment(): Environment {
  const env = new Environment({
    enableOptionalTypes: true,
    unlistedVariablesAreDyn: false,
    homogeneousAggregateLiterals: true,
  });
  registerStrings(env);
  registerLists(env);
  registerRegex(env);
  registerUrls(env);
  registerQuantity(env);
  registerNetwork(env);
  registerSets(env);
  registerFormat(env);
  // Only admission expressions have an `authorizer` to call these on.
  registerAuthz(env);
  return env;
}
