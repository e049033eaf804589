// The test the Requirement Map names for FR-001 (the requirement proof runs it).
