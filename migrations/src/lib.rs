//! The database schema.
