/* A sender passes tagged-union messages (int, point or text) to a receiver through a
 * one-slot mailbox guarded by a mutex and two condition variables. The receiver switches on
 * the tag and checks the payload; the mailbox is only touched under the lock. Safe. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

enum kind { MSG_INT, MSG_POINT, MSG_TEXT, MSG_QUIT };

struct message {
    enum kind kind;
    union {
        int i;
        struct { short x, y; } point;
        char text[8];
    } u;
};

static struct message mailbox;
static int full;
static pthread_mutex_t mlock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int checksum;

static void mailbox_send(const struct message *m)
{
    pthread_mutex_lock(&mlock);
    while (full)
        pthread_cond_wait(&changed, &mlock);
    mailbox = *m;
    full = 1;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&mlock);
}

static struct message mailbox_receive(void)
{
    struct message m;

    pthread_mutex_lock(&mlock);
    while (!full)
        pthread_cond_wait(&changed, &mlock);
    m = mailbox;
    full = 0;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&mlock);
    return m;
}

static void *receiver(void *arg)
{
    (void)arg;
    for (;;) {
        struct message m = mailbox_receive();
        switch (m.kind) {
        case MSG_INT:   assert(m.u.i == 42); checksum += m.u.i; break;
        case MSG_POINT: assert(m.u.point.x == 3 && m.u.point.y == -4);
                        checksum += m.u.point.x * m.u.point.y; break;
        case MSG_TEXT:  assert(strcmp(m.u.text, "hello") == 0);
                        checksum += (int)strlen(m.u.text); break;
        case MSG_QUIT:  return NULL;
        }
    }
}

int main(void)
{
    pthread_t r;
    struct message m;

    pthread_create(&r, NULL, receiver, NULL);
    m.kind = MSG_INT;   m.u.i = 42;                         mailbox_send(&m);
    m.kind = MSG_POINT; m.u.point.x = 3; m.u.point.y = -4;  mailbox_send(&m);
    m.kind = MSG_TEXT;  strcpy(m.u.text, "hello");          mailbox_send(&m);
    m.kind = MSG_QUIT;                                      mailbox_send(&m);
    pthread_join(r, NULL);

    assert(checksum == 42 - 12 + 5);
    printf("checksum=%d\n", checksum);
    return 0;
}
