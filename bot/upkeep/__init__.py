"""Care of the stored data: backup and restore, the consistency check, forgetting a person."""
