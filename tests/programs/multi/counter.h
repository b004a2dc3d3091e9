void counter_add(int k);
int counter_get(void);
