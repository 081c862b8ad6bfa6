"""chatschema code generation: schemas/ -> generated/."""
