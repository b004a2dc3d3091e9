/* if / else if / else chains, nested conditionals, classification. */
int g_inputs[10] = {-50, -1, 0, 1, 9, 10, 99, 100, 1000, 55};
int g_class[10] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
int g_grade[10] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
int g_buckets[5] = {0, 0, 0, 0, 0};
int g_nested = 0;
int g_leap_count = 0;
int g_max3 = 0;

int classify(int v)
{
    int r;
    if (v < 0)
        r = -1;
    else if (v == 0)
        r = 0;
    else if (v < 10)
        r = 1;
    else if (v < 100)
        r = 2;
    else
        r = 3;
    return r;
}

int grade(int score)
{
    if (score >= 90) {
        return 'A';
    } else if (score >= 80) {
        return 'B';
    } else if (score >= 70) {
        return 'C';
    } else {
        if (score >= 0) {
            return 'F';
        } else {
            return '?';
        }
    }
}

int is_leap(int y)
{
    if (y % 4 != 0) {
        return 0;
    } else if (y % 100 != 0) {
        return 1;
    } else if (y % 400 != 0) {
        return 0;
    }
    return 1;
}

int max3(int a, int b, int c)
{
    if (a >= b) {
        if (a >= c)
            return a;
        return c;
    } else {
        if (b >= c)
            return b;
        return c;
    }
}

int main(void)
{
    for (int i = 0; i < 10; i++) {
        g_class[i] = classify(g_inputs[i]);
        g_grade[i] = grade(g_inputs[i]);
        g_buckets[g_class[i] + 1]++;
    }
    for (int a = 0; a < 3; a++) {
        for (int b = 0; b < 3; b++) {
            if (a == b) {
                g_nested += 1;
            } else if (a < b) {
                if (b == 2)
                    g_nested += 10;
                else
                    g_nested += 100;
            } else {
                g_nested += 1000;
            }
        }
    }
    for (int y = 1890; y <= 2010; y++)
        g_leap_count += is_leap(y);
    g_max3 = max3(3, 9, 4) * 10000 + max3(9, 3, 4) * 100 + max3(1, 2, 7);
    return 0;
}
