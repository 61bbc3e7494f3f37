//go:build !onebug

package main

// oneBug switches in the example's one deliberate bug (build with -tags onebug): the kit's
// own test builds that copy and checks the kit catches it on the rule its words contradict.
const oneBug = false
