// Command ssa-oracle runs server-side apply scenarios through sigs.k8s.io/structured-merge-diff
// (the Debian package's v4.1.2 sources) the way kube-apiserver 1.32's field manager drives it,
// for opgen's differential test (test/unit/ssa-differential.test.ts).
//
// Input (stdin, JSON): {"schema": <SMD schema as YAML/JSON>, "type": <root type name>,
// "apiVersion": "...", "cases": [{"schema", "reset": [["status"], ...],
// "ops": [{"op": "apply"|"update", "manager", "force", "object"}]}]}.
// Output (stdout): one JSON line per case: {"steps": [{"object", "managed", "conflicts", "error"}]}.
//
// SMD's typed operations (Merge, Compare, ToFieldSet, RemoveItems) come from the library; the
// Updater's flow is written here after SMD v4.4 (kube 1.32), whose order differs from 4.1.2's:
// Update takes the writer's set minus Removed, then adds Modified and Added (upstream commit
// 6310a8a and the v4.4.0 Updater), and an Apply is a no-op when the merged object equals the live
// one by value (d1b78eb, 6310a8a), not by comparison. The kube layers (manager identifiers,
// current-operation, stripped metadata, before-first-apply) follow
// k8s.io/apimachinery/pkg/util/managedfields/internal.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"sort"

	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v4/merge"
	"sigs.k8s.io/structured-merge-diff/v4/typed"
	"sigs.k8s.io/structured-merge-diff/v4/value"
)

type op struct {
	Op      string                 `json:"op"`
	Manager string                 `json:"manager"`
	Force   bool                   `json:"force"`
	Object  map[string]interface{} `json:"object"`
	// The request's version (default: the input's); versions share one schema and convert by
	// apiVersion alone (a CRD's None strategy), so comparisons need no conversion.
	APIVersion string `json:"apiVersion"`
}

type input struct {
	Schema     string `json:"schema"`
	Type       string `json:"type"`
	APIVersion string `json:"apiVersion"`
	Cases      []struct {
		// A case's own schema replaces the shared one.
		Schema string `json:"schema"`
		// Paths the strategy resets (kube's GetResetFields, the Updater's ignored fields).
		Reset [][]string `json:"reset"`
		Ops   []op       `json:"ops"`
	} `json:"cases"`
}

type conflict struct {
	Manager string `json:"manager"`
	Path    string `json:"path"`
}

type step struct {
	Object    interface{}                `json:"object"`
	Managed   map[string]json.RawMessage `json:"managed"`
	Conflicts []conflict                 `json:"conflicts"`
	Error     string                     `json:"error,omitempty"`
}

var stripSet = fieldpath.NewSet(
	fieldpath.MakePathOrDie("apiVersion"),
	fieldpath.MakePathOrDie("kind"),
	fieldpath.MakePathOrDie("metadata"),
	fieldpath.MakePathOrDie("metadata", "name"),
	fieldpath.MakePathOrDie("metadata", "namespace"),
	fieldpath.MakePathOrDie("metadata", "creationTimestamp"),
	fieldpath.MakePathOrDie("metadata", "selfLink"),
	fieldpath.MakePathOrDie("metadata", "uid"),
	fieldpath.MakePathOrDie("metadata", "clusterName"),
	fieldpath.MakePathOrDie("metadata", "generation"),
	fieldpath.MakePathOrDie("metadata", "managedFields"),
	fieldpath.MakePathOrDie("metadata", "resourceVersion"),
)

type oracle struct {
	pt         typed.ParseableType
	apiVersion fieldpath.APIVersion
	// ignored is the Updater's IgnoredFields for apiVersion (nil: none).
	ignored *fieldpath.Set
}

func identifier(manager, operation, apiVersion string) string {
	m := map[string]string{"manager": manager, "operation": operation}
	if operation == "Update" {
		m["apiVersion"] = apiVersion
	}
	// The field order kube's BuildManagerIdentifier writes.
	b := "{" + q("manager") + ":" + q(m["manager"]) + "," + q("operation") + ":" + q(operation)
	if operation == "Update" {
		b += "," + q("apiVersion") + ":" + q(apiVersion)
	}
	return b + "}"
}

func q(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func strip(managers fieldpath.ManagedFields, id string) {
	if vs, ok := managers[id]; ok {
		s := vs.Set().Difference(stripSet)
		if s.Empty() {
			delete(managers, id)
		} else {
			managers[id] = fieldpath.NewVersionedSet(s, vs.APIVersion(), vs.Applied())
		}
	}
}

// update is the Updater's shared step: managers lose what the write changed or removed.
func (o *oracle) update(oldObj, newObj *typed.TypedValue, managers fieldpath.ManagedFields, workflow string, force bool) (fieldpath.ManagedFields, *typed.Comparison, error) {
	cmp, err := oldObj.Compare(newObj)
	if err != nil {
		return nil, nil, fmt.Errorf("compare: %v", err)
	}
	cmp = cmp.ExcludeFields(o.ignored)
	conflicts := fieldpath.ManagedFields{}
	removed := fieldpath.ManagedFields{}
	for m, vs := range managers {
		if m == workflow {
			continue
		}
		c := vs.Set().Intersection(cmp.Modified.Union(cmp.Added))
		if !c.Empty() {
			conflicts[m] = fieldpath.NewVersionedSet(c, vs.APIVersion(), false)
		}
		if !cmp.Removed.Empty() {
			removed[m] = fieldpath.NewVersionedSet(cmp.Removed, vs.APIVersion(), false)
		}
	}
	if !force && len(conflicts) != 0 {
		// merge.ConflictsFromManagers in 4.1.2 keeps the iterator's reused path (aliasing);
		// upstream copies it since commit 24aa83d, which this does too.
		cs := merge.Conflicts{}
		for m, vs := range conflicts {
			vs.Set().Iterate(func(p fieldpath.Path) {
				cs = append(cs, merge.Conflict{Manager: m, Path: p.Copy()})
			})
		}
		return nil, nil, cs
	}
	for m, c := range conflicts {
		managers[m] = fieldpath.NewVersionedSet(managers[m].Set().Difference(c.Set()), managers[m].APIVersion(), managers[m].Applied())
	}
	for m, r := range removed {
		managers[m] = fieldpath.NewVersionedSet(managers[m].Set().Difference(r.Set()), managers[m].APIVersion(), managers[m].Applied())
	}
	for m := range managers {
		if managers[m].Set().Empty() {
			delete(managers, m)
		}
	}
	return managers, cmp, nil
}

// kubeUpdate is managedFieldsUpdater + stripMeta + the Updater's Update, as "current-operation".
func (o *oracle) kubeUpdate(live, next *typed.TypedValue, managers fieldpath.ManagedFields, id string) (fieldpath.ManagedFields, error) {
	const current = "current-operation"
	managers, cmp, err := o.update(live, next, managers, current, true)
	if err != nil {
		return nil, err
	}
	set := fieldpath.NewSet()
	if vs, ok := managers[current]; ok {
		set = vs.Set()
	}
	set = set.Difference(cmp.Removed).Union(cmp.Modified).Union(cmp.Added)
	if o.ignored != nil {
		set = set.RecursiveDifference(o.ignored)
	}
	managers[current] = fieldpath.NewVersionedSet(set, o.apiVersion, false)
	if set.Empty() {
		delete(managers, current)
	}
	strip(managers, current)
	if vs, ok := managers[current]; ok {
		delete(managers, current)
		if prev, ok := managers[id]; ok {
			managers[id] = fieldpath.NewVersionedSet(vs.Set().Union(prev.Set()), vs.APIVersion(), vs.Applied())
		} else {
			managers[id] = vs
		}
	}
	return managers, nil
}

func (o *oracle) prune(merged *typed.TypedValue, managers fieldpath.ManagedFields, last fieldpath.VersionedSet) (*typed.TypedValue, error) {
	if last == nil || last.Set().Empty() {
		return merged, nil
	}
	sc, tr := merged.Schema(), merged.TypeRef()
	pruned := merged.RemoveItems(last.Set().EnsureNamedFieldsAreMembers(sc, tr))
	owned := fieldpath.NewSet()
	for _, vs := range managers {
		owned = owned.Union(vs.Set())
	}
	mergedSet, err := merged.ToFieldSet()
	if err != nil {
		return nil, err
	}
	prunedSet, err := pruned.ToFieldSet()
	if err != nil {
		return nil, err
	}
	pruned = merged.RemoveItems(mergedSet.EnsureNamedFieldsAreMembers(sc, tr).Difference(prunedSet.EnsureNamedFieldsAreMembers(sc, tr).Union(owned.EnsureNamedFieldsAreMembers(sc, tr))))
	// Dangling items: what the apply left unowned stays.
	prunedSet, err = pruned.ToFieldSet()
	if err != nil {
		return nil, err
	}
	mergedSet2 := mergedSet.EnsureNamedFieldsAreMembers(sc, tr)
	lastSet := last.Set().EnsureNamedFieldsAreMembers(sc, tr)
	return merged.RemoveItems(mergedSet2.Difference(prunedSet.EnsureNamedFieldsAreMembers(sc, tr)).Intersection(lastSet)), nil
}

func (o *oracle) apply(live, config *typed.TypedValue, managers fieldpath.ManagedFields, id string, force bool) (*typed.TypedValue, fieldpath.ManagedFields, error) {
	merged, err := live.Merge(config)
	if err != nil {
		return nil, nil, fmt.Errorf("merge: %v", err)
	}
	last := managers[id]
	set, err := config.ToFieldSet()
	if err != nil {
		return nil, nil, fmt.Errorf("field set: %v", err)
	}
	if o.ignored != nil {
		set = set.RecursiveDifference(o.ignored)
	}
	managers[id] = fieldpath.NewVersionedSet(set, o.apiVersion, true)
	merged, err = o.prune(merged, managers, last)
	if err != nil {
		return nil, nil, fmt.Errorf("prune: %v", err)
	}
	managers, _, err = o.update(live, merged, managers, id, force)
	if err != nil {
		return nil, nil, err
	}
	strip(managers, id)
	if value.Equals(live.AsValue(), merged.AsValue()) {
		return nil, managers, nil
	}
	return merged, managers, nil
}

func (o *oracle) typed(obj interface{}) (*typed.TypedValue, error) {
	return o.pt.FromUnstructured(obj)
}

func copyManagers(m fieldpath.ManagedFields) fieldpath.ManagedFields {
	out := fieldpath.ManagedFields{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

func (o *oracle) runCase(ops []op) []step {
	var live interface{}
	managers := fieldpath.ManagedFields{}
	steps := []step{}
	for _, p := range ops {
		s, err := o.runOp(p, &live, &managers)
		if err != nil {
			s = step{Error: err.Error()}
		}
		steps = append(steps, s)
		if err != nil {
			break
		}
	}
	return steps
}

func (o *oracle) runOp(p op, live *interface{}, managers *fieldpath.ManagedFields) (step, error) {
	if p.APIVersion != "" && fieldpath.APIVersion(p.APIVersion) != o.apiVersion {
		v := *o
		v.apiVersion = fieldpath.APIVersion(p.APIVersion)
		o = &v
	}
	base := *live
	if base == nil {
		base = map[string]interface{}{}
	}
	liveTV, err := o.typed(base)
	if err != nil {
		return step{}, fmt.Errorf("live: %v", err)
	}
	objTV, err := o.typed(p.Object)
	if err != nil {
		return step{}, fmt.Errorf("object: %v", err)
	}
	m := copyManagers(*managers)
	if p.Op == "update" {
		if len(m) > 0 || *live == nil {
			m, err = o.kubeUpdate(liveTV, objTV, m, identifier(p.Manager, "Update", string(o.apiVersion)))
			if err != nil {
				return step{}, err
			}
		}
		*live = objTV.AsValue().Unstructured()
		*managers = m
		return o.report(*live, m, nil)
	}
	if len(m) == 0 {
		empty, _ := o.typed(map[string]interface{}{})
		if m, err = o.kubeUpdate(empty, liveTV, m, identifier("before-first-apply", "Update", string(o.apiVersion))); err != nil {
			return step{}, err
		}
	}
	next, m2, err := o.apply(liveTV, objTV, m, identifier(p.Manager, "Apply", ""), p.Force)
	if conflicts, ok := err.(merge.Conflicts); ok {
		cs := []conflict{}
		for _, c := range conflicts {
			cs = append(cs, conflict{Manager: c.Manager, Path: c.Path.String()})
		}
		sort.Slice(cs, func(i, j int) bool {
			if cs[i].Manager != cs[j].Manager {
				return cs[i].Manager < cs[j].Manager
			}
			return cs[i].Path < cs[j].Path
		})
		return o.report(*live, *managers, cs)
	}
	if err != nil {
		return step{}, err
	}
	if next != nil {
		*live = next.AsValue().Unstructured()
	} else {
		*live = liveTV.AsValue().Unstructured()
	}
	*managers = m2
	return o.report(*live, m2, nil)
}

func (o *oracle) report(obj interface{}, managers fieldpath.ManagedFields, cs []conflict) (step, error) {
	out := step{Object: obj, Managed: map[string]json.RawMessage{}, Conflicts: cs}
	for id, vs := range managers {
		b, err := vs.Set().ToJSON()
		if err != nil {
			return step{}, err
		}
		out.Managed[id] = b
	}
	return out, nil
}

func main() {
	var in input
	dec := json.NewDecoder(bufio.NewReader(os.Stdin))
	dec.UseNumber()
	if err := dec.Decode(&in); err != nil {
		fmt.Fprintln(os.Stderr, "ssa-oracle: reading input:", err)
		os.Exit(2)
	}
	if in.Schema == "" {
		in.Schema = "types: []"
	}
	parser, err := typed.NewParser(typed.YAMLObject(in.Schema))
	if err != nil {
		fmt.Fprintln(os.Stderr, "ssa-oracle: schema:", err)
		os.Exit(2)
	}
	o := &oracle{pt: parser.Type(in.Type), apiVersion: fieldpath.APIVersion(in.APIVersion)}
	w := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(w)
	for _, c := range in.Cases {
		co := o
		if c.Schema != "" {
			p, err := typed.NewParser(typed.YAMLObject(c.Schema))
			if err != nil {
				fmt.Fprintln(os.Stderr, "ssa-oracle: schema:", err)
				os.Exit(2)
			}
			co = &oracle{pt: p.Type(in.Type), apiVersion: o.apiVersion}
		}
		if len(c.Reset) > 0 {
			paths := []fieldpath.Path{}
			for _, r := range c.Reset {
				parts := []interface{}{}
				for _, name := range r {
					parts = append(parts, name)
				}
				paths = append(paths, fieldpath.MakePathOrDie(parts...))
			}
			co = &oracle{pt: co.pt, apiVersion: co.apiVersion, ignored: fieldpath.NewSet(paths...)}
		}
		for i := range c.Ops {
			c.Ops[i].Object = normalize(c.Ops[i].Object).(map[string]interface{})
		}
		if err := enc.Encode(map[string]interface{}{"steps": co.runCase(c.Ops)}); err != nil {
			fmt.Fprintln(os.Stderr, "ssa-oracle: writing:", err)
			os.Exit(2)
		}
	}
	w.Flush()
}

// normalize turns json.Numbers into int64 or float64, as kube's unstructured decoding does.
func normalize(v interface{}) interface{} {
	switch t := v.(type) {
	case map[string]interface{}:
		for k, x := range t {
			t[k] = normalize(x)
		}
		return t
	case []interface{}:
		for i, x := range t {
			t[i] = normalize(x)
		}
		return t
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i
		}
		f, _ := t.Float64()
		return f
	}
	return v
}
