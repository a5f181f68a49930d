; Inno Setup script for Recount Desk: a per-machine install of the PyInstaller folder
; dist\recount-desk\, a Start-menu shortcut, and the .recount file association.
;
; Build (on Windows, after packaging\build.sh or the PowerShell steps in packaging\README.md):
;   iscc /DAppVersion=0.1.0 packaging\windows\recount_desk.iss
; The installer is written to dist\RecountDesk-<version>-setup.exe.

#ifndef AppVersion
  #define AppVersion "0.0.0"
#endif
#define AppName "Recount Desk"
#define AppExe "recount-desk.exe"
#define SrcDir "..\..\dist\recount-desk"

[Setup]
; Keep this AppId for every release: it is how an upgrade finds the installed copy.
AppId={{6F1E2B0C-8A4D-4B57-9C3E-2D7A1F5B9E41}
AppName={#AppName}
AppVersion={#AppVersion}
AppVerName={#AppName} {#AppVersion}
AppPublisher=Recount Desk
DefaultDirName={autopf}\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
; Per machine: every clerk who logs on to the workstation gets it (needs an administrator).
PrivilegesRequired=admin
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
MinVersion=10.0
OutputDir=..\..\dist
OutputBaseFilename=RecountDesk-{#AppVersion}-setup
SetupIconFile=..\..\resources\icons\recount-desk.ico
UninstallDisplayIcon={app}\{#AppExe}
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
; Tell Explorer the .recount association changed.
ChangesAssociations=yes
CloseApplications=yes

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
Source: "{#SrcDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[InstallDelete]
; An upgrade replaces the bundle's libraries; nothing of the user's lives in {app}.
Type: filesandordirs; Name: "{app}\_internal"

[Icons]
Name: "{autoprograms}\{#AppName}"; Filename: "{app}\{#AppExe}"; Comment: "Utah recounts under Utah Code 20A-4-401"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\{#AppExe}"; Tasks: desktopicon

[Registry]
; .recount -> RecountDesk.Case, opened by the window with the file's path.
Root: HKA; Subkey: "Software\Classes\.recount"; ValueType: string; ValueName: ""; ValueData: "RecountDesk.Case"; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\.recount\OpenWithProgids"; ValueType: string; ValueName: "RecountDesk.Case"; ValueData: ""; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\RecountDesk.Case"; ValueType: string; ValueName: ""; ValueData: "Recount Desk case file"; Flags: uninsdeletekey
Root: HKA; Subkey: "Software\Classes\RecountDesk.Case\DefaultIcon"; ValueType: string; ValueName: ""; ValueData: "{app}\{#AppExe},0"
Root: HKA; Subkey: "Software\Classes\RecountDesk.Case\shell\open\command"; ValueType: string; ValueName: ""; ValueData: """{app}\{#AppExe}"" ""%1"""
Root: HKA; Subkey: "Software\Classes\Applications\{#AppExe}\SupportedTypes"; ValueType: string; ValueName: ".recount"; ValueData: ""; Flags: uninsdeletekey

[Run]
; A quiet self-test after installing (no network, a temporary folder), then offer to start.
Filename: "{app}\recount-desk-cli.exe"; Parameters: "--self-test"; StatusMsg: "Checking the installation…"; Flags: runhidden waituntilterminated
Filename: "{app}\{#AppExe}"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent
