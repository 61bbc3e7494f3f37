package main

// Argument checks. A value of the wrong type is a TypeError, a value of the right type that
// cannot be stored or compared a ValueError (the contract's words, sent back as the error's
// data.errorClass). Every method checks all its arguments before it changes anything.

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strings"
)

// ArgError is a refused argument; Class is the contract's exception class.
type ArgError struct {
	Class string
	Msg   string
}

func (e *ArgError) Error() string { return e.Msg }

func typeErrorf(format string, args ...any) error {
	return &ArgError{Class: "TypeError", Msg: fmt.Sprintf(format, args...)}
}

func valueErrorf(format string, args ...any) error {
	return &ArgError{Class: "ValueError", Msg: fmt.Sprintf(format, args...)}
}

// maxNesting is the contract's limit: a payload nesting objects and lists past 32 levels is
// refused with ValueError (the message itself is the first level of a message's payload).
const maxNesting = 32

const controlKind = "event-marker"

func text(v any, what string) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", typeErrorf("%s must be a string, got %s", what, kindOf(v))
	}
	return s, nil
}

// unlimited stands for a limit of Infinity or an integer larger than any history.
const unlimited = math.MaxInt

// limitOf reads a limit: absent means fallback; a non-negative integer, Infinity, or an
// integer of any size (larger than any history: all of it). Anything else is a ValueError.
func limitOf(v any, present bool, fallback int, what string) (int, error) {
	if !present {
		return fallback, nil
	}
	bad := valueErrorf("%s must be a non-negative integer or Infinity, got %s", what, show(v))
	switch v := v.(type) {
	case float64: // $num
		if math.IsInf(v, 1) {
			return unlimited, nil
		}
		return 0, bad
	case *big.Int:
		if v.Sign() < 0 {
			return 0, bad
		}
		if v.IsInt64() && v.Int64() < unlimited {
			return int(v.Int64()), nil
		}
		return unlimited, nil
	case json.Number:
		f, err := v.Float64()
		if err != nil || f < 0 || f != math.Trunc(f) {
			return 0, bad
		}
		if f >= float64(unlimited) {
			return unlimited, nil
		}
		return int(f), nil
	}
	return 0, bad
}

func show(v any) string {
	switch v := v.(type) {
	case json.Number:
		return string(v)
	case *big.Int:
		return v.String()
	case float64, bool:
		return fmt.Sprint(v)
	case string:
		return fmt.Sprintf("%q", v)
	}
	return kindOf(v)
}

// checkJSON accepts plain JSON only (string keys, finite numbers, no bytes or opaque values)
// nested at most maxNesting levels; depth is the level of v itself.
func checkJSON(v any, what string, depth int) error {
	switch v := v.(type) {
	case nil, bool, string, json.Number, *big.Int:
		return nil
	case float64:
		return valueErrorf("%s: %v is not JSON", what, v)
	case []any:
		if depth > maxNesting {
			return valueErrorf("%s is nested deeper than %d levels", what, maxNesting)
		}
		for _, item := range v {
			if err := checkJSON(item, what, depth+1); err != nil {
				return err
			}
		}
		return nil
	case map[string]any:
		if depth > maxNesting {
			return valueErrorf("%s is nested deeper than %d levels", what, maxNesting)
		}
		for _, item := range v {
			if err := checkJSON(item, what, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	return typeErrorf("%s: a %s is not JSON", what, kindOf(v))
}

// Stamp is a message timestamp: epoch milliseconds as an int64, or a float64 as it was sent.
type Stamp struct {
	isFloat bool
	i       int64
	f       float64
	text    string // the float's JSON text, returned as it was saved
}

// stampOf reads a timestamp. finite: a stored timestamp (Infinity is refused); otherwise a
// bound, where ±Infinity means unbounded.
func stampOf(v any, what string, finite bool) (Stamp, error) {
	switch v := v.(type) {
	case json.Number:
		if i, err := v.Int64(); err == nil && !strings.ContainsAny(string(v), ".eE") {
			return Stamp{i: i}, nil
		}
		if !strings.ContainsAny(string(v), ".eE") {
			return Stamp{}, valueErrorf("%s must fit in 64 signed bits, got %s", what, v)
		}
		f, err := v.Float64()
		if err != nil {
			return Stamp{}, valueErrorf("%s is not a number: %s", what, v)
		}
		return Stamp{isFloat: true, f: f, text: string(v)}, nil
	case *big.Int:
		if !v.IsInt64() {
			return Stamp{}, valueErrorf("%s must fit in 64 signed bits, got %s", what, v)
		}
		return Stamp{i: v.Int64()}, nil
	case float64:
		if math.IsNaN(v) {
			return Stamp{}, valueErrorf("%s must be a number, got NaN", what)
		}
		if finite {
			return Stamp{}, valueErrorf("%s must be finite, got %v", what, v)
		}
		return Stamp{isFloat: true, f: v}, nil
	}
	return Stamp{}, typeErrorf("%s must be a number (epoch ms), got %s", what, kindOf(v))
}

// compare orders two stamps by value, exactly: an int64 and a float64 are compared as the
// numbers they are (float64(2**63 - 1) would equal 2**63).
func (a Stamp) compare(b Stamp) int {
	switch {
	case !a.isFloat && !b.isFloat:
		return cmp(a.i, b.i)
	case a.isFloat && b.isFloat:
		return cmp(a.f, b.f)
	}
	return a.big().Cmp(b.big())
}

func (a Stamp) big() *big.Float {
	if a.isFloat {
		return new(big.Float).SetFloat64(a.f)
	}
	return new(big.Float).SetInt64(a.i)
}

func cmp[T int64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// value is the stamp as it is stored and returned.
func (a Stamp) value() any {
	if a.isFloat {
		return json.Number(a.text)
	}
	return big.NewInt(a.i)
}

// The optional message fields, by type; a message is stored with these and role, content,
// timestamp, nothing else.
var (
	textFields  = []string{"toolCallId", "name", "kind"}
	stringLists = []string{"images", "audios"}
	objectLists = []string{"toolCalls", "segments"}
	optional    = []string{"toolCallId", "name", "kind", "images", "audios", "toolCalls", "segments", "metadata"}
)

// checkMessage reads a message (camelCase JSON) into the object that is stored: only its
// fields, the timestamp stamped with now when it has none. Absent optional fields stay absent.
func checkMessage(v any, now int64) (map[string]any, Stamp, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, Stamp{}, typeErrorf("message must be an object, got %s", kindOf(v))
	}
	if _, err := text(m["role"], "message.role"); err != nil {
		return nil, Stamp{}, err
	}
	if c := m["content"]; c != nil {
		if _, err := text(c, "message.content"); err != nil {
			return nil, Stamp{}, err
		}
	}
	if r := m["reasoningContent"]; r != nil {
		if _, err := text(r, "message.reasoningContent"); err != nil {
			return nil, Stamp{}, err
		}
	}
	for _, field := range textFields {
		if f := m[field]; f != nil {
			if _, err := text(f, "message."+field); err != nil {
				return nil, Stamp{}, err
			}
		}
	}
	for _, field := range stringLists {
		if err := listOf(m[field], "message."+field, "string", func(x any) bool { _, ok := x.(string); return ok }); err != nil {
			return nil, Stamp{}, err
		}
	}
	for _, field := range objectLists {
		if err := listOf(m[field], "message."+field, "object", func(x any) bool { _, ok := x.(map[string]any); return ok }); err != nil {
			return nil, Stamp{}, err
		}
	}
	if md := m["metadata"]; md != nil {
		if _, ok := md.(map[string]any); !ok {
			return nil, Stamp{}, typeErrorf("message.metadata must be an object, got %s", kindOf(md))
		}
	}
	stamp := Stamp{i: now}
	if ts, given := m["timestamp"]; given && ts != nil {
		var err error
		if stamp, err = stampOf(ts, "message.timestamp", true); err != nil {
			return nil, Stamp{}, err
		}
	}
	stored := map[string]any{"role": m["role"], "content": m["content"], "timestamp": stamp.value()}
	if r, present := m["reasoningContent"]; present {
		stored["reasoningContent"] = r // null is a value here: saved null, read back null
	}
	for _, field := range optional {
		if value := m[field]; value != nil { // a null optional field is an absent one
			stored[field] = value
		}
	}
	if err := checkJSON(stored, "message", 1); err != nil {
		return nil, Stamp{}, err
	}
	return stored, stamp, nil
}

func listOf(v any, what, item string, holds func(any) bool) error {
	if v == nil {
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		return typeErrorf("%s must be a list of %ss, got %s", what, item, kindOf(v))
	}
	for _, x := range list {
		if !holds(x) {
			return typeErrorf("%s must hold only %ss, got %s", what, item, kindOf(x))
		}
	}
	return nil
}

// payload is a metadata object: a JSON object, nothing else.
func payload(v any, what string) (map[string]any, error) {
	data, ok := v.(map[string]any)
	if !ok {
		return nil, typeErrorf("%s must be an object, got %s", what, kindOf(v))
	}
	if err := checkJSON(data, what, 1); err != nil {
		return nil, err
	}
	return data, nil
}
