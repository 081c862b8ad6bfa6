"""`python -m release.evolution`: what a schema edit breaks, for whom, proven with a witness payload.

- `source`: the schemas, versions and generated API of a git revision or of the work tree;
- `canonical`: each named type reduced to what decides validity, to tell changed types apart;
- `rules`: names the change over the schema text (`property 'x' became required`, ...);
- `witness`: finds payloads valid under one version and invalid under the other (`instances` draws
  them, `mutations` varies them);
- `api`: code-level changes of the generated Python and TypeScript API;
- `engine`: puts them together per family and type (`releases`: against every earlier release);
- `gate`: what fails, per family (`--fail-on`, `--mode`, compatibility.json); `accept`: the accept
  list; `findings`: each finding with its rule id (`ids`), severity and line (`locate`);
- `run`: one run of all of these into an `outcome`; `report` and `formats`: text, json, github,
  junit, sarif; `cli`: the command line.
"""
