/* fake_nvml.c - a stand-in for libnvidia-ml.so.1 (loaded through MMB_NVML_LIBRARY)
 * for the tests of clocks, power and energy on machines whose GPUs must not be
 * touched, or that have none. It keeps the one device's settings in a state file, so
 * that they outlive a process as a real GPU's do (a supervisor and its workers see the
 * same state), logs every call, and is steered by the environment:
 *
 *   FAKE_NVML_STATE=FILE   the settings: "locked_min locked_max power_limit_mw" (0 0: unlocked)
 *   FAKE_NVML_LOG=FILE     one line per call: "pid name args"
 *   FAKE_NVML_DENY=1       every setter answers NVML_ERROR_NO_PERMISSION, as without root
 *   FAKE_NVML_UNSUPPORTED=a,b  those functions answer NVML_ERROR_NOT_SUPPORTED
 *   FAKE_NVML_CRASH=name   that function kills the process with SIGSEGV (a worker crash)
 *   FAKE_NVML_CRASH_AFTER=name  the same, after the function has done its work
 *   FAKE_NVML_INIT=9       nvmlInit_v2 answers this code (9: the driver is not loaded)
 *   FAKE_NVML_POWER_W=300  board power; the energy counter grows by it, in steps
 *   FAKE_NVML_TICK_MS=100  the energy counter's update interval
 *   FAKE_NVML_REASONS=0x4  the clock event reasons now
 *   FAKE_NVML_VIOLATION=0  ns of power-policy violation per second of wall time
 *   FAKE_NVML_SAMPLES=1    0: the driver keeps no clock samples
 *
 * Its clocks: 1980 MHz unlocked, else the locked maximum (the TDP clock 1590); it
 * supports 1980 down to 345 MHz in steps of 15 at one memory clock, and power limits
 * from 200 W to 700 W (default 700 W). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#define NO_PERMISSION 4
#define NOT_SUPPORTED 3
#define NOT_FOUND 6
#define INVALID_ARGUMENT 2
#define INSUFFICIENT_SIZE 7
#define TDP_ID 0xffffff01u
#define TDP_MHZ 1590u
#define MAX_MHZ 1980u
#define MIN_MHZ 345u

struct state {
    unsigned locked_min, locked_max, power_limit_mw;
};

static void log_call(const char *name, const char *fmt, ...)
{
    const char *path = getenv("FAKE_NVML_LOG");
    if (!path)
        return;
    char line[512];
    int n = snprintf(line, sizeof line, "%d %s", (int)getpid(), name);
    if (fmt && n > 0 && (size_t)n < sizeof line) {
        va_list ap;
        va_start(ap, fmt);
        n += vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
        va_end(ap);
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd < 0)
        return;
    if (n > 0 && (size_t)n < sizeof line - 1) {
        line[n++] = '\n';
        ssize_t w = write(fd, line, (size_t)n);
        (void)w;
    }
    close(fd);
}

static int listed(const char *var, const char *name)
{
    const char *v = getenv(var);
    size_t n = strlen(name);
    for (const char *p = v; p && *p;) {
        size_t len = strcspn(p, ",");
        if (len == n && !strncmp(p, name, n))
            return 1;
        p += len + (p[len] == ',');
    }
    return 0;
}

/* The common start of every call: logged, crashed or refused as the environment says. */
static int enter(const char *name)
{
    if (listed("FAKE_NVML_CRASH", name))
        raise(SIGSEGV);
    return listed("FAKE_NVML_UNSUPPORTED", name) ? NOT_SUPPORTED : 0;
}

static void leave(const char *name)
{
    if (listed("FAKE_NVML_CRASH_AFTER", name))
        raise(SIGSEGV);
}

static int state_fd(void)
{
    const char *path = getenv("FAKE_NVML_STATE");
    if (!path)
        return -1;
    int fd = open(path, O_RDWR | O_CREAT, 0644);
    if (fd >= 0)
        while (flock(fd, LOCK_EX) != 0 && errno == EINTR)
            ;
    return fd;
}

static struct state state_read(int fd)
{
    struct state s = {0, 0, 700000};
    char buf[128] = "";
    ssize_t n = fd >= 0 ? pread(fd, buf, sizeof buf - 1, 0) : 0;
    if (n > 0) {
        buf[n] = '\0';
        if (sscanf(buf, "%u %u %u", &s.locked_min, &s.locked_max, &s.power_limit_mw) != 3)
            s = (struct state){0, 0, 700000};
    }
    return s;
}

static void state_write(int fd, struct state s)
{
    if (fd < 0)
        return;
    char buf[128];
    int n = snprintf(buf, sizeof buf, "%u %u %u\n", s.locked_min, s.locked_max, s.power_limit_mw);
    if (ftruncate(fd, 0) == 0) {
        ssize_t w = pwrite(fd, buf, (size_t)n, 0);
        (void)w;
    }
}

static struct state state_now(void)
{
    int fd = state_fd();
    struct state s = state_read(fd);
    if (fd >= 0)
        close(fd);
    return s;
}

static double env_number(const char *name, double dflt)
{
    const char *v = getenv(name);
    return v && *v ? strtod(v, NULL) : dflt;
}

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static unsigned clock_now(void)
{
    struct state s = state_now();
    if (!s.locked_max)
        return MAX_MHZ;
    return s.locked_max == TDP_ID ? TDP_MHZ : s.locked_max;
}

int nvmlInit_v2(void)
{
    log_call("nvmlInit_v2", NULL);
    return (int)env_number("FAKE_NVML_INIT", 0);
}

int nvmlShutdown(void)
{
    return 0;
}

const char *nvmlErrorString(int rc)
{
    switch (rc) {
    case 0: return "Success";
    case INVALID_ARGUMENT: return "Invalid Argument";
    case NOT_SUPPORTED: return "Not Supported";
    case NO_PERMISSION: return "Insufficient Permissions";
    case NOT_FOUND: return "Not Found";
    default: return "Unknown Error";
    }
}

int nvmlDeviceGetHandleByUUID(const char *uuid, void **dev)
{
    log_call("nvmlDeviceGetHandleByUUID", " %s", uuid);
    const char *want = getenv("FAKE_NVML_UUID");
    if ((want && strcmp(want, uuid)) || strncmp(uuid, "GPU-", 4))
        return NOT_FOUND;
    *dev = (void *)0x1;
    return 0;
}

int nvmlDeviceGetClockInfo(void *dev, int type, unsigned *mhz)
{
    int rc = enter("nvmlDeviceGetClockInfo");
    if (rc)
        return rc;
    *mhz = type == 2 ? 2619 : clock_now();
    return 0;
}

int nvmlDeviceGetMaxClockInfo(void *dev, int type, unsigned *mhz)
{
    int rc = enter("nvmlDeviceGetMaxClockInfo");
    if (rc)
        return rc;
    *mhz = type == 2 ? 2619 : MAX_MHZ;
    return 0;
}

int nvmlDeviceGetSupportedMemoryClocks(void *dev, unsigned *count, unsigned *mhz)
{
    int rc = enter("nvmlDeviceGetSupportedMemoryClocks");
    if (rc)
        return rc;
    if (*count < 1) {
        *count = 1;
        return INSUFFICIENT_SIZE;
    }
    *count = 1;
    mhz[0] = 2619;
    return 0;
}

int nvmlDeviceGetSupportedGraphicsClocks(void *dev, unsigned mem, unsigned *count, unsigned *mhz)
{
    int rc = enter("nvmlDeviceGetSupportedGraphicsClocks");
    if (rc)
        return rc;
    unsigned n = (MAX_MHZ - MIN_MHZ) / 15 + 1;
    if (mem != 2619)
        return INVALID_ARGUMENT;
    if (*count < n) {
        *count = n;
        return INSUFFICIENT_SIZE;
    }
    for (unsigned i = 0; i < n; i++)
        mhz[i] = MIN_MHZ + 15 * i; /* ascending: the caller sorts */
    *count = n;
    return 0;
}

struct sample {
    unsigned long long time_us;
    unsigned long long value; /* the union's 8 bytes; the clock in its low 32 bits */
};

int nvmlDeviceGetSamples(void *dev, int type, unsigned long long since_us, int *value_type, unsigned *count,
                         struct sample *samples)
{
    int rc = enter("nvmlDeviceGetSamples");
    if (rc)
        return rc;
    if (type != 5)
        return NOT_SUPPORTED;
    if (env_number("FAKE_NVML_SAMPLES", 1) == 0)
        return NOT_FOUND;
    /* one sample every 20 ms over the last two seconds, after since_us */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    unsigned long long now = (unsigned long long)ts.tv_sec * 1000000ull + (unsigned long long)ts.tv_nsec / 1000;
    unsigned n = 0, clock = clock_now();
    for (unsigned long long t = now - now % 20000 - 2000000; t <= now && n < *count; t += 20000) {
        if (t <= since_us)
            continue;
        samples[n].time_us = t;
        samples[n].value = clock;
        n++;
    }
    *value_type = 1;
    *count = n;
    return n ? 0 : NOT_FOUND;
}

int nvmlDeviceGetCurrentClocksEventReasons(void *dev, unsigned long long *reasons)
{
    int rc = enter("nvmlDeviceGetCurrentClocksEventReasons");
    if (rc)
        return rc;
    const char *v = getenv("FAKE_NVML_REASONS");
    *reasons = v ? strtoull(v, NULL, 0) : 0;
    if (state_now().locked_max)
        *reasons |= 0x2; /* a locked clock shows as the applications-clock setting */
    return 0;
}

struct violation {
    unsigned long long reference_us, violation_ns;
};

int nvmlDeviceGetViolationStatus(void *dev, int policy, struct violation *v)
{
    int rc = enter("nvmlDeviceGetViolationStatus");
    log_call("nvmlDeviceGetViolationStatus", " %d", policy);
    if (rc)
        return rc;
    double rate = policy == 0 ? env_number("FAKE_NVML_VIOLATION", 0) : 0;
    v->reference_us = (unsigned long long)(mono_s() * 1e6);
    v->violation_ns = (unsigned long long)(mono_s() * rate);
    return 0;
}

/* nvmlFieldValue_t */
struct field_value {
    unsigned field_id, scope_id;
    long long timestamp, latency_us;
    int value_type, nvml_return;
    unsigned long long value;
};

/* The perf-policy counters (fields 74 to 79: 74 + the policy) as the violation
 * status gives them; any other field is not supported. */
int nvmlDeviceGetFieldValues(void *dev, int count, struct field_value *values)
{
    int rc = enter("nvmlDeviceGetFieldValues");
    log_call("nvmlDeviceGetFieldValues", " %d", count);
    if (rc)
        return rc;
    if (count < 0 || !values)
        return INVALID_ARGUMENT;
    for (int i = 0; i < count; i++) {
        struct field_value *f = &values[i];
        if (f->field_id < 74 || f->field_id > 79) {
            f->nvml_return = NOT_SUPPORTED;
            continue;
        }
        double rate = f->field_id == 74 ? env_number("FAKE_NVML_VIOLATION", 0) : 0;
        f->value_type = 3; /* unsigned long long */
        f->value = (unsigned long long)(mono_s() * rate);
        f->nvml_return = 0;
    }
    return 0;
}

int nvmlDeviceGetTotalEnergyConsumption(void *dev, unsigned long long *mj)
{
    int rc = enter("nvmlDeviceGetTotalEnergyConsumption");
    if (rc)
        return rc;
    double tick = env_number("FAKE_NVML_TICK_MS", 100) / 1e3, t = mono_s();
    double updated = tick > 0 ? (double)(long long)(t / tick) * tick : t;
    *mj = (unsigned long long)(updated * env_number("FAKE_NVML_POWER_W", 300) * 1e3);
    return 0;
}

int nvmlDeviceGetPowerUsage(void *dev, unsigned *mw)
{
    *mw = (unsigned)(env_number("FAKE_NVML_POWER_W", 300) * 1e3);
    return 0;
}

static int setter(const char *name)
{
    int rc = enter(name);
    if (rc)
        return rc;
    return env_number("FAKE_NVML_DENY", 0) ? NO_PERMISSION : 0;
}

int nvmlDeviceSetGpuLockedClocks(void *dev, unsigned min_mhz, unsigned max_mhz)
{
    log_call("nvmlDeviceSetGpuLockedClocks", " %u %u", min_mhz, max_mhz);
    int rc = setter("nvmlDeviceSetGpuLockedClocks");
    if (rc)
        return rc;
    int special = min_mhz == TDP_ID && max_mhz == TDP_ID;
    if (!special && (min_mhz > max_mhz || min_mhz < MIN_MHZ || max_mhz > MAX_MHZ))
        return INVALID_ARGUMENT;
    int fd = state_fd();
    struct state s = state_read(fd);
    s.locked_min = min_mhz;
    s.locked_max = max_mhz;
    state_write(fd, s);
    if (fd >= 0)
        close(fd);
    leave("nvmlDeviceSetGpuLockedClocks");
    return 0;
}

int nvmlDeviceResetGpuLockedClocks(void *dev)
{
    log_call("nvmlDeviceResetGpuLockedClocks", NULL);
    int rc = setter("nvmlDeviceResetGpuLockedClocks");
    if (rc)
        return rc;
    int fd = state_fd();
    struct state s = state_read(fd);
    s.locked_min = s.locked_max = 0;
    state_write(fd, s);
    if (fd >= 0)
        close(fd);
    return 0;
}

int nvmlDeviceGetPowerManagementLimit(void *dev, unsigned *mw)
{
    int rc = enter("nvmlDeviceGetPowerManagementLimit");
    if (rc)
        return rc;
    *mw = state_now().power_limit_mw;
    return 0;
}

int nvmlDeviceGetPowerManagementDefaultLimit(void *dev, unsigned *mw)
{
    int rc = enter("nvmlDeviceGetPowerManagementDefaultLimit");
    if (rc)
        return rc;
    *mw = 700000;
    return 0;
}

int nvmlDeviceGetPowerManagementLimitConstraints(void *dev, unsigned *min_mw, unsigned *max_mw)
{
    int rc = enter("nvmlDeviceGetPowerManagementLimitConstraints");
    if (rc)
        return rc;
    *min_mw = 200000;
    *max_mw = 700000;
    return 0;
}

int nvmlDeviceSetPowerManagementLimit(void *dev, unsigned mw)
{
    log_call("nvmlDeviceSetPowerManagementLimit", " %u", mw);
    int rc = setter("nvmlDeviceSetPowerManagementLimit");
    if (rc)
        return rc;
    if (mw < 200000 || mw > 700000)
        return INVALID_ARGUMENT;
    int fd = state_fd();
    struct state s = state_read(fd);
    s.power_limit_mw = mw;
    state_write(fd, s);
    if (fd >= 0)
        close(fd);
    leave("nvmlDeviceSetPowerManagementLimit");
    return 0;
}
