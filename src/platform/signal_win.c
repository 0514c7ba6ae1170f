/* signal_win.c - console control events delivered as POSIX signal numbers
 * (SetConsoleCtrlHandler; Microsoft Docs "HandlerRoutine callback"). */
#include <windows.h>

#include <mmsystem.h>

#include <errno.h>
#include <signal.h>

static void (*sig_handler)(int);

static BOOL WINAPI on_ctrl(DWORD type)
{
    void (*h)(int) = sig_handler;
    if (!h)
        return FALSE;
    switch (type) {
    case CTRL_C_EVENT:
        h(SIGINT);
        return TRUE;
    case CTRL_BREAK_EVENT:
    case CTRL_CLOSE_EVENT:
    case CTRL_LOGOFF_EVENT:
    case CTRL_SHUTDOWN_EVENT:
        h(SIGTERM);
        /* for close/logoff/shutdown Windows ends the process when this
         * returns; give the main thread time to write what was measured */
        if (type != CTRL_BREAK_EVENT)
            Sleep(3000);
        return TRUE;
    default:
        return FALSE;
    }
}

/* The progress line uses VT sequences ("\r\033[K"); Windows 10's console
 * interprets them only with ENABLE_VIRTUAL_TERMINAL_PROCESSING (Microsoft
 * Docs, "Console Virtual Terminal Sequences"). Without it (older consoles)
 * nothing changes. */
static void console_vt(DWORD which)
{
    HANDLE h = GetStdHandle(which);
    DWORD mode = 0;
    if (h != INVALID_HANDLE_VALUE && GetConsoleMode(h, &mode))
        SetConsoleMode(h, mode | ENABLE_PROCESSED_OUTPUT | ENABLE_VIRTUAL_TERMINAL_PROCESSING);
}

int iom_win_signals_install(void (*handler)(int sig))
{
    sig_handler = handler;
    console_vt(STD_ERROR_HANDLE);
    console_vt(STD_OUTPUT_HANDLE);
    /* 1 ms timer resolution for the runner's sleeps and timeouts (the
     * default tick is 15.6 ms; Microsoft Docs, timeBeginPeriod) */
    timeBeginPeriod(1);
    return SetConsoleCtrlHandler(on_ctrl, TRUE) ? 0 : -EINVAL;
}
