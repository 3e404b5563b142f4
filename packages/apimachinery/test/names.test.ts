import { describe, expect, it } from "vitest";
import {
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  kubebuilderPlural,
  pluralize,
  resourcePlural,
  wordParts,
} from "../src/names/index.js";

describe("pluralize (gobuffalo/flect v1.0.3)", () => {
  // [kind, controller-gen's plural]; the comment names the flect rule that decides it.
  const cases: [string, string][] = [
    ["CronJob", "cronjobs"], // last part "Job": no rule, +s
    ["Cronjobs", "cronjobs"], // already ends in s
    ["Policy", "policies"], // cy → cies
    ["NetworkPolicy", "networkpolicies"],
    ["Ingress", "ingresses"], // ss → sses
    ["Endpoints", "endpoints"],
    ["EndpointSlice", "endpointslices"],
    ["Person", "people"], // person → people
    ["Index", "indices"], // irregular
    ["Status", "statuses"], // atus → atuses
    ["Bus", "buses"], // irregular
    ["Child", "children"], // child → children
    ["Quiz", "quizzes"], // irregular
    ["Matrix", "matrices"], // irregular
    ["Analysis", "analyses"], // irregular
    ["Basis", "bases"], // irregular before the basis rule
    ["AppCluster", "appclusters"],
    ["MyApp", "myapps"],
    ["DNS", "dnses"], // acronym ending in S: +es
    ["APIServer", "apiservers"],
    ["HTTPRoute", "httproutes"],
    ["Proxy", "proxies"], // xy → xies
    ["Gateway", "gateways"], // vowel + y: +s
    ["Day", "days"],
    ["Key", "keys"],
    ["Box", "boxes"], // box → boxes
    ["Fox", "foxes"], // x → xes
    ["Batch", "batches"], // ch → ches
    ["Wish", "wishes"], // sh → shes
    ["Class", "classes"],
    ["Address", "addresses"],
    ["Hero", "heroes"], // o → oes
    ["Photo", "photos"], // irregular
    ["Radio", "radios"], // io → ios
    ["Video", "videoes"], // eo: o → oes
    ["Shoe", "shoes"], // irregular
    ["Toe", "toes"], // oe → oes
    ["Knife", "knives"], // ife → ives
    ["Safe", "saves"], // afe → aves
    ["Wolf", "wolves"], // irregular
    ["Shelf", "shelves"], // lf → lves
    ["Scarf", "scarves"], // rf → rves
    ["Leaf", "leafs"], // no rule for af
    ["Criterion", "criteria"], // iterion → iteria
    ["Medium", "mediums"], // dium → diums before ium → ia
    ["Aquarium", "aquaria"], // ium → ia
    ["Datum", "data"],
    ["Data", "data"], // a plural of the irregular list
    ["Virus", "viri"], // irus → iri
    ["Cactus", "cacti"], // actus → acti
    ["Octopus", "octopi"],
    ["Sheep", "sheep"],
    ["Series", "series"],
    ["Man", "men"],
    ["Woman", "women"], // man → men
    ["Human", "humans"], // irregular wins over the man rule
    ["Mouse", "mice"],
    ["House", "houses"], // use → uses
    ["Goose", "geese"],
    ["Tooth", "teeth"],
    ["Size", "sizes"], // ize → izes
    ["Bridge", "bridges"], // dge → dges
    ["Node", "nodes"], // ode → odes
    ["Schema", "schemas"],
    ["Quota", "quotas"],
    ["Foo", "foos"],
    ["Alias", "aliases"],
    ["Campus", "campuses"],
    ["Hive", "hives"],
    ["Thesis", "theses"],
    ["Crisis", "crises"],
    ["Oneof", "oneofs"],
    ["ConfigMap", "configmaps"],
    ["ReplicaSet", "replicasets"],
    ["Cache", "caches"],
    ["Deployment", "deployments"],
  ];
  for (const [kind, plural] of cases) {
    it(`${kind} → ${plural}`, () => expect(resourcePlural(kind)).toBe(plural));
  }

  it("inflects only the last camel-case part, keeping the rest as written", () => {
    expect(pluralize("NetworkPolicy")).toBe("NetworkPolicies");
    expect(pluralize("BigMouse")).toBe("BigMice");
    expect(pluralize("")).toBe("");
    expect(wordParts("APIServer")).toEqual(["API", "Server"]);
    expect(wordParts("HTTPRoute")).toEqual(["HTTP", "Route"]);
    expect(wordParts("my_app-cluster")).toEqual(["my", "app", "cluster"]);
  });

  it("lowers first for Kubebuilder's plural, which can differ from controller-gen's", () => {
    expect(kubebuilderPlural("CronJob")).toBe("cronjobs");
    // Older flect gave "functionbuildren" (kubebuilder #1993); v1.0.3 matches the whole "child".
    expect(resourcePlural("FunctionBuild")).toBe("functionbuilds");
    expect(kubebuilderPlural("FunctionBuild")).toBe("functionbuilds");
    expect(resourcePlural("MyChild")).toBe("mychildren");
    expect(kubebuilderPlural("MyChild")).toBe("mychildren");
    expect(resourcePlural("IPPool")).toBe("ippools");
  });
});

describe("name validation (k8s.io/apimachinery/pkg/util/validation)", () => {
  it("checks DNS-1123 labels and subdomains with kube's messages", () => {
    expect(isDNS1123Label("my-name")).toEqual([]);
    expect(isDNS1123Label("My_Name")).toEqual([
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ]);
    expect(isDNS1123Label("a".repeat(64))).toContain("must be no more than 63 characters");
    expect(isDNS1123Subdomain("demo.example.com")).toEqual([]);
    expect(isDNS1123Subdomain("-x.com")[0]).toMatch(/^a lowercase RFC 1123 subdomain must consist/);
    expect(isDNS1123Subdomain("a".repeat(254))).toContain("must be no more than 253 characters");
  });
  it("checks DNS-1035 labels (versions, plurals), qualified names and label values", () => {
    expect(isDNS1035Label("v1beta1")).toEqual([]);
    expect(isDNS1035Label("1v")[0]).toMatch(/start with an alphabetic character/);
    expect(isQualifiedName("example.com/tier")).toEqual([]);
    expect(isQualifiedName("/tier")).toEqual(["prefix part must be non-empty"]);
    expect(isQualifiedName("a/b/c")[0]).toMatch(/with an optional DNS subdomain prefix/);
    expect(isValidLabelValue("")).toEqual([]);
    expect(isValidLabelValue("-x")[0]).toMatch(/^a valid label must be an empty string/);
  });
});
