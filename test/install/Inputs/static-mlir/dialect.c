int hostDialect(void) { return 0; }
