/* signal_win.c - console control events delivered as POSIX signal numbers
 * (SetConsoleCtrlHandler; Microsoft Docs "HandlerRoutine callback"). */
#include <windows.h>

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

int iom_win_signals_install(void (*handler)(int sig))
{
    sig_handler = handler;
    return SetConsoleCtrlHandler(on_ctrl, TRUE) ? 0 : -EINVAL;
}
