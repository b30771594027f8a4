"""JVM filters: maven, gradle, sbt (one file per filter)."""
