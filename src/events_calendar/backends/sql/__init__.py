"""The SQL layer shared by every SQL database: schema, filter compiler, store.

A SQL backend is this layer plus a dialect (how its SQL differs), an engine (its driver,
connections and transactions) and its migrations.
"""
