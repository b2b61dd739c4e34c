package io.iam.core.cost;

/**
 * Merge and I/O counts of one way of storing a stream: merges, page writes and page reads, and the
 * same writes and reads in entries (a page holds P entries).
 */
public record LsmCosts(long merges, long writeIos, long readIos, long writtenEntries, long readEntries) {}
