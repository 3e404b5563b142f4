// Command yaml-oracle is the reference opgen's YAML writer is tested against: it writes values as
// gopkg.in/yaml.v2 (v2.4) does, the library controller-gen's manifests go through, and reads
// opgen's YAML back with the same library.
//
// stdin: a stream of JSON requests {"doc": <any JSON value>, "yaml": "<opgen's YAML of doc>"}.
// stdout: one JSON line per request, in order:
//
//	v2        yaml.v2's Marshal of the value (strings exactly as sent; each number as yaml.v2
//	          resolves its JSON text, which is what happens on controller-gen's path)
//	sigs      sigs.k8s.io/yaml.Marshal of the value: encoding/json, then yaml.v2 reads that JSON
//	          back and writes it (controller-gen's genall.WriteYAML path); sigsErr when it fails
//	genall    for object documents, the same path as controller-tools' genall.yamlMarshal writes it
//	          (yaml.v2 Unmarshal into map[string]interface{}, then Marshal); genallErr when it fails
//	readBack  "" when yaml.v2 reads opgen's YAML back as the value sent, else where it differs
//	err       a request this program could not handle
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"reflect"
	"sort"
	"strings"

	yaml2 "gopkg.in/yaml.v2"
	sigsyaml "sigs.k8s.io/yaml"
)

type request struct {
	Doc  json.RawMessage `json:"doc"`
	YAML *string         `json:"yaml"`
}

type response struct {
	V2        string `json:"v2"`
	Sigs      string `json:"sigs"`
	SigsErr   string `json:"sigsErr,omitempty"`
	Genall    string `json:"genall,omitempty"`
	GenallErr string `json:"genallErr,omitempty"`
	ReadBack  string `json:"readBack"`
	Err       string `json:"err,omitempty"`
}

func main() {
	in := json.NewDecoder(bufio.NewReaderSize(os.Stdin, 1<<20))
	out := bufio.NewWriterSize(os.Stdout, 1<<20)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for {
		var req request
		if err := in.Decode(&req); err == io.EOF {
			return
		} else if err != nil {
			fmt.Fprintln(os.Stderr, "yaml-oracle: bad request:", err)
			os.Exit(2)
		}
		if err := enc.Encode(answer(req)); err != nil {
			fmt.Fprintln(os.Stderr, "yaml-oracle:", err)
			os.Exit(2)
		}
	}
}

func answer(req request) (res response) {
	defer func() {
		if r := recover(); r != nil {
			res.Err = fmt.Sprint(r)
		}
	}()
	dec := json.NewDecoder(strings.NewReader(string(req.Doc)))
	dec.UseNumber()
	var raw interface{}
	if err := dec.Decode(&raw); err != nil {
		res.Err = err.Error()
		return
	}
	value, err := resolveNumbers(raw)
	if err != nil {
		res.Err = err.Error()
		return
	}
	v2, err := yaml2.Marshal(value)
	if err != nil {
		res.Err = err.Error()
		return
	}
	res.V2 = string(v2)
	if s, err := sigsyaml.Marshal(raw); err != nil {
		res.SigsErr = err.Error()
	} else {
		res.Sigs = string(s)
	}
	if _, isMap := raw.(map[string]interface{}); isMap {
		if g, err := genallMarshal(raw); err != nil {
			res.GenallErr = err.Error()
		} else {
			res.Genall = string(g)
		}
	}
	if req.YAML != nil {
		res.ReadBack = readBack(*req.YAML, value)
	}
	return
}

// genallMarshal is controller-tools' pkg/genall yamlMarshal: encoding/json, then yaml.v2 reads the
// JSON into a map[string]interface{} and writes it.
func genallMarshal(o interface{}) ([]byte, error) {
	j, err := json.Marshal(o)
	if err != nil {
		return nil, err
	}
	var m map[string]interface{}
	if err := yaml2.Unmarshal(j, &m); err != nil {
		return nil, err
	}
	return yaml2.Marshal(m)
}

// resolveNumbers replaces each json.Number by what yaml.v2 reads its text as (int, int64,
// uint64 or float64), as on controller-gen's path where yaml.v2 reads encoding/json's output.
func resolveNumbers(v interface{}) (interface{}, error) {
	switch t := v.(type) {
	case json.Number:
		var n interface{}
		if err := yaml2.Unmarshal([]byte(t.String()), &n); err != nil {
			return nil, err
		}
		return n, nil
	case map[string]interface{}:
		m := make(map[string]interface{}, len(t))
		for k, x := range t {
			r, err := resolveNumbers(x)
			if err != nil {
				return nil, err
			}
			m[k] = r
		}
		return m, nil
	case []interface{}:
		l := make([]interface{}, len(t))
		for i, x := range t {
			r, err := resolveNumbers(x)
			if err != nil {
				return nil, err
			}
			l[i] = r
		}
		return l, nil
	}
	return v, nil
}

// readBack reads text with yaml.v2 and says where it differs from want ("" when it does not).
func readBack(text string, want interface{}) string {
	var got interface{}
	if err := yaml2.Unmarshal([]byte(text), &got); err != nil {
		return "yaml.v2 cannot read it: " + err.Error()
	}
	return diff("$", normalize(got), want)
}

// normalize turns yaml.v2's map[interface{}]interface{} into map[string]interface{}; a key that is
// not a string stays visible as a tagged string so diff reports it.
func normalize(v interface{}) interface{} {
	switch t := v.(type) {
	case map[interface{}]interface{}:
		m := make(map[string]interface{}, len(t))
		for k, x := range t {
			ks, ok := k.(string)
			if !ok {
				ks = fmt.Sprintf("<non-string key %T %v>", k, k)
			}
			m[ks] = normalize(x)
		}
		return m
	case []interface{}:
		l := make([]interface{}, len(t))
		for i, x := range t {
			l[i] = normalize(x)
		}
		return l
	}
	return v
}

func diff(path string, got, want interface{}) string {
	switch w := want.(type) {
	case map[string]interface{}:
		g, ok := got.(map[string]interface{})
		if !ok {
			return fmt.Sprintf("%s: got %#v, want a mapping", path, got)
		}
		keys := make([]string, 0, len(w)+len(g))
		for k := range w {
			keys = append(keys, k)
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			gv, gok := g[k]
			wv, wok := w[k]
			if !gok || !wok {
				return fmt.Sprintf("%s: key %q present in got=%v want=%v", path, k, gok, wok)
			}
			if d := diff(fmt.Sprintf("%s[%q]", path, k), gv, wv); d != "" {
				return d
			}
		}
		return ""
	case []interface{}:
		g, ok := got.([]interface{})
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("%s: got %#v, want a sequence of %d", path, got, len(w))
		}
		for i := range w {
			if d := diff(fmt.Sprintf("%s[%d]", path, i), g[i], w[i]); d != "" {
				return d
			}
		}
		return ""
	}
	if !reflect.DeepEqual(got, want) {
		return fmt.Sprintf("%s: got %#v, want %#v", path, got, want)
	}
	return ""
}
