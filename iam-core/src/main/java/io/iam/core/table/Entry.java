package io.iam.core.table;

/**
 * One entry read from a table: an internal key and its value. The arrays are fresh copies owned by
 * the caller.
 */
public record Entry(byte[] key, byte[] value) {}
