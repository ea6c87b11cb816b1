// Filled by a later issue; the module exists so the layout of DESIGN.md §1 builds from day one.
