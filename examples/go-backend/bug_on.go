//go:build onebug

package main

// oneBug: deleteMetadata of a stored key drops its whole namespace, not the one entry.
// META-03 says "delete_metadata removes that one entry and leaves the namespace's other
// entries"; no other rule's words speak of it (deleting a missing key is still a no-op, as
// META-11 asks).
const oneBug = true
