/* switch with fallthrough, default in various positions, break, and grouped cases. */
int g_inputs[10] = {0, 1, 2, 3, 4, 5, 6, 7, -1, 100};
int g_fall[10] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
int g_named[10] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
int g_default_mid[10] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
int g_no_default = 0;

int fall(int v)
{
    int acc = 0;
    switch (v) {
    case 0:
        acc += 1;
        /* fall through */
    case 1:
        acc += 10;
        /* fall through */
    case 2:
        acc += 100;
        break;
    case 3:
    case 4:
        acc += 1000;
        /* fall through */
    default:
        acc += 10000;
    }
    return acc;
}

int named(int v)
{
    switch (v % 4) {
    case 0:
        return 'z';
    case 1:
        return 'o';
    case -1:
        return 'n';
    default:
        return 'd';
    }
}

int default_mid(int v)
{
    int r = 0;
    switch (v) {
    case 1:
        r = 1;
        break;
    default:
        r = 50;
        /* fall through */
    case 5:
        r += 5;
        break;
    case 7:
        r = 7;
    }
    return r;
}

int main(void)
{
    for (int i = 0; i < 10; i++) {
        g_fall[i] = fall(g_inputs[i]);
        g_named[i] = named(g_inputs[i]);
        g_default_mid[i] = default_mid(g_inputs[i]);
        switch (g_inputs[i]) {
        case 2:
            g_no_default += 2;
            break;
        case 6:
            g_no_default += 60;
            break;
        }
    }

    return 0;
}
