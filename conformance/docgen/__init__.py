"""Generated documents and the rule CLI: SPEC_MAP.md, docs/contract.md, `rules` and
`explain`."""
