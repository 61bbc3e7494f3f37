package main

// The protocol's values (docs/stdio-protocol.md, "Values"): JSON, plus one-member objects
// tagged "$num", "$int", "$bytes", "$map", "$opaque" and "$object" for what JSON cannot spell.
// Requests are decoded into Go values here once; the backend then checks them with type
// switches, as a Go caller's values would be checked.

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
)

// Opaque is a value of no JSON type (a set, a date, a dict passed where a Message belongs).
type Opaque struct{ Type string }

// Map is an object whose keys are not all strings ({"$map": [[key, value], ...]}).
type Map [][2]any

// decode reads one protocol value. Numbers stay json.Number, so their text (2.0 or 2) comes
// back as it was sent; integers past ±2**53 arrive tagged and become *big.Int.
func decode(raw json.RawMessage) (any, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return untag(v)
}

func untag(v any) (any, error) {
	switch v := v.(type) {
	case []any:
		for i, item := range v {
			out, err := untag(item)
			if err != nil {
				return nil, err
			}
			v[i] = out
		}
		return v, nil
	case map[string]any:
		if len(v) == 1 {
			for tag, body := range v {
				if out, ok, err := tagged(tag, body); ok || err != nil {
					return out, err
				}
			}
		}
		for key, item := range v {
			out, err := untag(item)
			if err != nil {
				return nil, err
			}
			v[key] = out
		}
		return v, nil
	}
	return v, nil
}

func tagged(tag string, body any) (any, bool, error) {
	text, _ := body.(string)
	switch tag {
	case "$num":
		switch text {
		case "Infinity":
			return math.Inf(1), true, nil
		case "-Infinity":
			return math.Inf(-1), true, nil
		case "NaN":
			return math.NaN(), true, nil
		}
		return nil, true, fmt.Errorf("bad $num %v", body)
	case "$int":
		n, ok := new(big.Int).SetString(text, 10)
		if !ok {
			return nil, true, fmt.Errorf("bad $int %v", body)
		}
		return n, true, nil
	case "$bytes":
		b, err := base64.StdEncoding.DecodeString(text)
		return b, true, err
	case "$opaque":
		return Opaque{Type: text}, true, nil
	case "$map":
		pairs, _ := body.([]any)
		out := make(Map, 0, len(pairs))
		for _, pair := range pairs {
			kv, ok := pair.([]any)
			if !ok || len(kv) != 2 {
				return nil, true, fmt.Errorf("bad $map pair %v", pair)
			}
			k, err := untag(kv[0])
			if err != nil {
				return nil, true, err
			}
			v, err := untag(kv[1])
			if err != nil {
				return nil, true, err
			}
			out = append(out, [2]any{k, v})
		}
		return out, true, nil
	case "$object":
		object, ok := body.(map[string]any)
		if !ok {
			return nil, true, fmt.Errorf("bad $object %v", body)
		}
		for key, item := range object {
			out, err := untag(item)
			if err != nil {
				return nil, true, err
			}
			object[key] = out
		}
		return object, true, nil
	}
	return nil, false, nil
}

// isTag says whether a one-member object with this key would read as a tagged value.
func isTag(key string) bool {
	switch key {
	case "$num", "$int", "$bytes", "$map", "$opaque", "$object", "$cycle", "$deep":
		return true
	}
	return false
}

var safeInteger = new(big.Int).Lsh(big.NewInt(1), 53)

// encode writes a checked JSON value (what the store keeps) in the protocol's encoding:
// integers past ±2**53 as {"$int": ...}, an object that would read as a tag inside {"$object": ...}.
func encode(buf *bytes.Buffer, v any) {
	switch v := v.(type) {
	case nil:
		buf.WriteString("null")
	case bool:
		buf.WriteString(strconv.FormatBool(v))
	case json.Number:
		buf.WriteString(string(v))
	case *big.Int:
		if v.CmpAbs(safeInteger) <= 0 {
			buf.WriteString(v.String())
		} else {
			fmt.Fprintf(buf, `{"$int":"%s"}`, v.String())
		}
	case int64:
		encode(buf, big.NewInt(v))
	case string:
		text, _ := json.Marshal(v)
		buf.Write(text)
	case []any:
		buf.WriteByte('[')
		for i, item := range v {
			if i > 0 {
				buf.WriteByte(',')
			}
			encode(buf, item)
		}
		buf.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(v))
		for key := range v {
			keys = append(keys, key)
		}
		sort.Strings(keys)
		wrap := len(keys) == 1 && isTag(keys[0])
		if wrap {
			buf.WriteString(`{"$object":`)
		}
		buf.WriteByte('{')
		for i, key := range keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			encode(buf, key)
			buf.WriteByte(':')
			encode(buf, v[key])
		}
		buf.WriteByte('}')
		if wrap {
			buf.WriteByte('}')
		}
	default:
		panic(fmt.Sprintf("encode: %T is not a stored value", v))
	}
}

func encoded(v any) []byte {
	var buf bytes.Buffer
	encode(&buf, v)
	return buf.Bytes()
}

// kindOf names a value's type for error messages, in the protocol's words.
func kindOf(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "bool"
	case json.Number, *big.Int:
		return "number"
	case float64:
		return "non-finite number"
	case string:
		return "string"
	case []any:
		return "list"
	case map[string]any:
		return "object"
	case []byte:
		return "bytes"
	case Map:
		return "map with non-string keys"
	case Opaque:
		return v.Type
	}
	return fmt.Sprintf("%T", v)
}

// loneSurrogate reports whether raw JSON text holds a \u escape of half a surrogate pair.
// encoding/json replaces such an escape with U+FFFD without a word, so a backend that must
// refuse text it cannot store (INPUT-04) has to look before decoding.
func loneSurrogate(raw []byte) bool {
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\\' || i+1 >= len(raw) {
			continue
		}
		if raw[i+1] != 'u' {
			i++ // an escaped character: skip it (it may be a backslash)
			continue
		}
		unit, ok := hex4(raw, i+2)
		if !ok {
			continue
		}
		switch {
		case unit >= 0xD800 && unit <= 0xDBFF:
			if i+11 < len(raw) && raw[i+6] == '\\' && raw[i+7] == 'u' {
				if low, ok := hex4(raw, i+8); ok && low >= 0xDC00 && low <= 0xDFFF {
					i += 11
					continue
				}
			}
			return true
		case unit >= 0xDC00 && unit <= 0xDFFF:
			return true
		}
		i += 5
	}
	return false
}

func hex4(raw []byte, at int) (uint64, bool) {
	if at+4 > len(raw) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(raw[at:at+4]), 16, 16)
	return n, err == nil
}
